// Package edge holds struct types whose digest go/types and reflect must
// spell alike (annotate's TestShapeAgreesWithReflect): types of other
// packages, pointers, slices, arrays, maps, channels, functions,
// interfaces, named types, embedded structs of this package and others,
// aliases, byte and rune, recursion, and generic instantiations.
package edge

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sync"
	"time"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime"
)

// Seat is a named string of this package.
type Seat string

// Seats is a named slice.
type Seats []Seat

// Window is a nested struct of this package.
type Window struct {
	From, To time.Time `db:"range"`
	Length   time.Duration
	hidden   int
}

// Base is embedded.
type Base struct {
	ID    string `json:"id" elicit:"required"`
	Inner        // embedded twice down
	note  string
}

// Inner is embedded in Base.
type Inner struct {
	Level int `json:"level"`
}

// Node is recursive.
type Node struct {
	Name string
	Next *Node
	Kids []Node
	Map  map[string]*Node
}

// Pair is generic.
type Pair[K comparable, V any] struct {
	Key   K
	Value V
}

// Alias is an alias of a type of this package; URLAlias of another's.
type (
	Alias    = Window
	URLAlias = url.URL
	PairInt  = Pair[string, int]
)

// GenericAlias is a generic alias (Go 1.24).
type GenericAlias[V any] = Pair[string, V]

// Stringer is an interface of this package.
type Stringer interface{ String() string }

// Everything has a field of each kind of type.
type Everything struct {
	Base
	*Inner2
	http.Cookie
	*sync.Mutex
	json.RawMessage `json:"raw"`

	S     string             `json:"s" elicit:"required,maxLength=4"`
	B     byte               `json:"b"`
	R     rune               `json:"r"`
	Bytes []byte             `json:"bytes"`
	Runes []rune             `json:"runes"`
	U     uint               `json:"u"`
	I64   int64              `json:"i64"`
	F32   float32            `json:"f32"`
	C128  complex128         `json:"-"`
	Ptr   uintptr            `json:"-"`
	UP    unsafe.Pointer     `json:"-"`
	Seat  Seat               `json:"seat"`
	Seats Seats              `json:"seats"`
	PSeat *Seat              `json:"pseat"`
	Win   Window             `json:"win"`
	PWin  *Window            `json:"pwin"`
	Wins  []Window           `json:"wins"`
	Arr   [3]Window          `json:"arr"`
	M     map[Seat][]*Window `json:"m"`
	T     time.Time          `json:"t"`
	PT    *time.Time         `json:"pt"`
	D     time.Duration      `json:"d"`
	URL   url.URL            `json:"url"`
	Anon  struct {
		A int    `json:"a"`
		b string //nolint
		W Window
	} `json:"anon"`
	Node    Node                       `json:"node"`
	Pair    Pair[string, int]          `json:"pair"`
	PairW   Pair[Seat, *Window]        `json:"pairw"`
	PairT   Pair[string, time.Time]    `json:"pairt"`
	PairURL Pair[url.URL, http.Cookie] `json:"-"`
	Alias   Alias                      `json:"alias"`
	UA      URLAlias                   `json:"ua"`
	PI      PairInt                    `json:"pi"`
	GA      GenericAlias[float64]      `json:"ga"`
	Any     any                        `json:"any"`
	Iface   interface{ M() }           `json:"-"`
	Str     Stringer                   `json:"-"`
	Err     error                      `json:"-"`
	Fn      func(int) string           `json:"-"`
	Ch      chan int                   `json:"-"`
	RCh     <-chan Seat                `json:"-"`
	SCh     chan<- *Window             `json:"-"`
	private int
	_       struct{}
	Quote   string `json:"q" elicit:"title='a, b',description=\"quoted\"\t"`
	Uni     string `json:"ü" 日本:"語"`
}

// Inner2 is embedded by pointer.
type Inner2 struct {
	Deep  Base
	Other *Node
}

// Embeds embeds types of other packages and a generic instantiation.
type Embeds struct {
	url.Userinfo
	*url.URL
	Pair[int, Seat]
	time.Duration
	Seat
	*runtime.Choice
	Choices []runtime.Choice
}

// Stamp and Link are types of this package defined over another package's
// struct: its unexported fields (all of Stamp's) are left out, since they
// change with that package, not with the form.
type (
	Stamp time.Time
	Link  url.URL
	Lock  sync.Mutex
)

// Defined holds types of this package defined over other packages' structs.
type Defined struct {
	At    Stamp  `json:"at"`
	Where *Link  `json:"where"`
	Mu    []Lock `json:"-"`
}
