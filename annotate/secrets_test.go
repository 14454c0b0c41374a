package annotate

import "testing"

// TestSecretNames: the names that look like secrets, by stem anywhere in
// the name or by abbreviation as a whole word, and ordinary names holding
// the same letters, which do not.
func TestSecretNames(t *testing.T) {
	for _, tc := range []struct{ goName, jsonName, want string }{
		{"Password", "password", "password"},
		{"Login", "user_pass_word", "password"},
		{"Passwd", "passwd", "passwd"},
		{"Pwd", "pwd", "pwd"},
		{"UserPwd", "userPwd", "pwd"},
		{"NewPW", "new_pw", "pw"},
		{"PIN", "pin", "pin"},
		{"CardPIN", "cardPin", "pin"},
		{"PINCode", "pinCode", "pincode"},
		{"PINs", "pins", "pin"},
		{"Code", "atm-pin", "pin"},
		{"Passcode", "passcode", "passcode"},
		{"OTP", "otp", "otp"},
		{"OTPCode", "otpCode", "otp"},
		{"TOTP", "totp", "totp"},
		{"MFACode", "mfa_code", "mfa"},
		{"CVV", "cvv", "cvv"},
		{"CVV2", "cvv2", "cvv"},
		{"CVC", "cvc", "cvc"},
		{"SecurityCode", "securityCode", "securitycode"},
		{"SSN", "ssn", "ssn"},
		{"IBAN", "iban", "iban"},
		{"Token", "token", "token"},
		{"AccessToken", "access_token", "token"},
		{"JWT", "jwt", "jwt"},
		{"APIKey", "apiKey", "apikey"},
		{"Key", "api-key", "apikey"},
		{"SecretKey", "secretKey", "secret"},
		{"PrivateKey", "private_key", "privatekey"},
		{"Credentials", "credentials", "credential"},
		{"CardNumber", "cardNumber", "cardnumber"},
		{"VerificationCode", "verification_code", "verificationcode"},

		{"Spin", "spin", ""},
		{"Pinned", "pinned", ""},
		{"Spinner", "spinner", ""},
		{"Option", "option", ""},
		{"Options", "options", ""},
		{"Topping", "topping", ""},
		{"Shipping", "shipping", ""},
		{"Happiness", "happiness", ""},
		{"BusinessName", "businessName", ""},
		{"Caribbean", "caribbean", ""},
		{"Power", "power", ""},
		{"PWM", "pwm", ""},
		{"Pinterest", "pinterest", ""},
		{"Cotp", "cotp", ""},
		{"Key", "key", ""},
		{"SortKey", "sortKey", ""},
		{"Passenger", "passenger", ""},
		{"Passport", "passport", ""},
		{"Compass", "compass", ""},
		{"Mfactor", "mfactor", ""},
		{"Name", "name", ""},
	} {
		if got := secretWord(tc.goName, tc.jsonName); got != tc.want {
			t.Errorf("secretWord(%q, %q) = %q, want %q", tc.goName, tc.jsonName, got, tc.want)
		}
	}
}

// TestSecretProse: titles and descriptions that name a password, a secret,
// a credential key or token, or a PIN-like code in capitals; and prose that
// uses the same words otherwise.
func TestSecretProse(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Your bank password", "password"},
		{"Passwords", "Passwords"},
		{"API key", "API key"},
		{"Your API-key for the service", "API key"},
		{"secret", "secret"},
		{"The client's secret", "secret"},
		{"Card PIN", "PIN"},
		{"The 6-digit OTP from your app", "OTP"},
		{"One-time code", "One time code"},
		{"Personal access token", "Personal access token"}, {"Access token", "Access token"},
		{"Refresh token", "Refresh token"},
		{"CVV2 on the back", "CVV2"},
		{"Credit card number", "Credit card"},
		{"Security code", "Security code"},
		{"SSH key", "SSH key"},
		{"Your pwd", "pwd"},
		{"Login credentials", "credentials"},

		{"", ""},
		{"Pin the post to the top", ""},
		{"Shipping option", ""},
		{"Sort key", ""},
		{"Key", ""},
		{"Maximum tokens to generate", ""},
		{"Token limit", ""},
		{"Keyboard layout", ""},
		{"Spinning speed", ""},
		{"Topping", ""},
		{"Passenger name", ""},
		{"The key of the record", ""},
	} {
		if got := secretProse(tc.text); got != tc.want {
			t.Errorf("secretProse(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
