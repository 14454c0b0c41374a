package corpus

// Inner is embedded in Hiding; its Name is hidden by Hiding.Name.
type Inner struct {
	Name string `json:"name" elicit:"optional"`
}

// Hiding has a shallower field that hides an elicit field of an embedded struct.
type Hiding struct {
	Inner        // want `^JSON name "name" is used by Inner\.Name and Name: encoding/json would use only Name and ignore Inner\.Name, so its elicit tag can never be answered; give it a distinct json tag or remove the elicit tag$`
	Name  string `json:"name" elicit:""`
}

// EmptyAnswers allows an empty answer where an empty value reads as missing.
type EmptyAnswers struct {
	Nick string   `json:"nick" elicit:"minLength=0"`         // want `^elicit tag on Nick: minLength=0 on a required string: "" reads as no answer; leave minLength out \(it becomes 1\), or make the field optional or a \*string$`
	Tags []string `json:"tags" elicit:"enum=a|b,minItems=0"` // want `^elicit tag on Tags: minItems=0 on a required multi select: an empty list reads as no answer; leave minItems out \(it becomes 1\), or make the field optional$`
}
