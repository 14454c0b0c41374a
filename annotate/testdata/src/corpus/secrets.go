package corpus

// Secrets look like credentials, which form mode must not ask for.
type Secrets struct {
	Password   string `json:"password" elicit:"optional"`       // want `^Password looks like a secret \("password"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	Token      string `json:"token" elicit:"optional"`          // want `^Token looks like a secret \("token"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	APIKey     string `json:"apiKey" elicit:"optional"`         // want `^APIKey looks like a secret \("apikey"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	Secret     string `json:"clientSecret" elicit:"optional"`   // want `^Secret looks like a secret \("secret"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	CardNumber string `json:"cardNumber" elicit:"optional"`     // want `^CardNumber looks like a secret \("cardnumber"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	CVV        string `json:"cvv" elicit:"optional"`            // want `^CVV looks like a secret \("cvv"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	Login      string `json:"user_pass_word" elicit:"optional"` // want `^Login looks like a secret \("password"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	TokenLimit *int   `json:"tokenLimit" elicit:"optional,notsecret"`
	Pwd        string `json:"pwd" elicit:"optional"`                                            // want `^Pwd looks like a secret \("pwd"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	CardPIN    string `json:"cardPin" elicit:"optional"`                                        // want `^CardPIN looks like a secret \("pin"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	Bank       string `json:"bank" elicit:"optional,title=Your bank password"`                  // want `^Bank looks like a secret \("password" in its title "Your bank password"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	Access     string `json:"access" elicit:"optional,description=The API key of your account"` // want `^Access looks like a secret \("API key" in its description "The API key of your account"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask it in a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\), or add notsecret to the elicit tag if it is not a secret$`
	Spin       *int   `json:"spin" elicit:"optional"`
	Shipping   string `json:"shipping" elicit:"optional,title=Shipping option"`
	Word       string `json:"word" elicit:"optional,title=Secret word,notsecret"`
}

// Login is a URL-mode question: its secrets are asked on the server's page.
//
//mcpgen:question url
type Login struct {
	User     string   `json:"user" elicit:"title=User"`
	Password string   `json:"password" elicit:"title=Password"`
	PIN      string   `json:"pin" elicit:"secret,title=PIN"`
	Key      string   `json:"key" elicit:"secret,notsecret"`       // want `^elicit tag on Key: both secret and notsecret; keep one$`
	Token    string   `json:"token" elicit:"optional,default=abc"` // want `^elicit tag on Token: a secret has no default: the page never shows a secret; remove default= \(it looks like a secret: "token"; add notsecret if it is not one\)$`
	Account  string   `json:"account" elicit:"optional,choices"`   // want `^elicit tag on Account: a URL-mode question cannot have choices: its page is written when mcpgen runs, before any run-time option is known; give the options with enum=a\|b\|c or a named string type's constants$`
	Remember *bool    `json:"remember" elicit:"optional,secret"`   // want `^elicit tag on Remember: secret applies to a string or a number typed in, not to a bool$`
	Scopes   []string `json:"tokenScopes" elicit:"optional,enum=read|write"`
	CSRF     string   `json:"csrf_token" elicit:"optional"` // want `^CSRF has the JSON name "csrf_token", which the page of a URL-mode question gives its CSRF token \(package runtime/page\); name it otherwise in its json tag$`
}

// Tagged is a tool whose field says secret: a form may not ask for one.
type Tagged struct {
	Code string `json:"code" elicit:"secret"` // want `^elicit tag on Code: secret applies to a field of a URL-mode question \(a struct with //mcpgen:question url; docs/questions.md, "Secrets: URL mode"\): a form may not ask for a secret at all$`
}
