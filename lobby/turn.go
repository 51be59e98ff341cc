package lobby

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"strconv"
	"time"
)

// Credentials signs TURN credentials in the form coturn accepts with
// use-auth-secret and static-auth-secret=secret (the "TURN REST API" of
// draft-uberti-behave-turn-rest): the username is the expiry in Unix
// seconds, a colon and name; the password is the base64 HMAC-SHA1 of the
// username keyed by the secret. coturn refuses the pair once expires is
// past, and anyone without the secret cannot make a pair it accepts.
func Credentials(secret []byte, name string, expires time.Time, urls []string) TURN {
	user := strconv.FormatInt(expires.Unix(), 10) + ":" + name
	mac := hmac.New(sha1.New, secret)
	mac.Write([]byte(user))
	return TURN{
		URLs:     urls,
		Username: user,
		Password: base64.StdEncoding.EncodeToString(mac.Sum(nil)),
		Expires:  expires.Unix(),
	}
}
