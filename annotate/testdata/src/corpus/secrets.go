package corpus

// Secrets look like credentials, which form mode must not ask for.
type Secrets struct {
	Password   string `json:"password" elicit:"optional"`       // want `^Password looks like a secret \("password"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; use URL mode elicitation for it, or add notsecret to the elicit tag if it is not a secret$`
	Token      string `json:"token" elicit:"optional"`          // want `^Token looks like a secret \("token"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; use URL mode elicitation for it, or add notsecret to the elicit tag if it is not a secret$`
	APIKey     string `json:"apiKey" elicit:"optional"`         // want `^APIKey looks like a secret \("apikey"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; use URL mode elicitation for it, or add notsecret to the elicit tag if it is not a secret$`
	Secret     string `json:"clientSecret" elicit:"optional"`   // want `^Secret looks like a secret \("secret"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; use URL mode elicitation for it, or add notsecret to the elicit tag if it is not a secret$`
	CardNumber string `json:"cardNumber" elicit:"optional"`     // want `^CardNumber looks like a secret \("cardnumber"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; use URL mode elicitation for it, or add notsecret to the elicit tag if it is not a secret$`
	CVV        string `json:"cvv" elicit:"optional"`            // want `^CVV looks like a secret \("cvv"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; use URL mode elicitation for it, or add notsecret to the elicit tag if it is not a secret$`
	Login      string `json:"user_pass_word" elicit:"optional"` // want `^Login looks like a secret \("password"\): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; use URL mode elicitation for it, or add notsecret to the elicit tag if it is not a secret$`
	TokenLimit *int   `json:"tokenLimit" elicit:"optional,notsecret"`
}
