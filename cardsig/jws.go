package cardsig

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"io"
	"math/big"
)

// Checking one signature (RFC 7515 §5.2, RFC 7518 §3, RFC 8037 §3.1)
// over a payload already in base64url: the signing input, the protected
// header, '.' and that payload, is hashed in pieces, so a check allocates
// nothing the size of the card. go-jose's DetachedVerify encodes the
// payload anew for every check (16 signatures, each tried over two forms,
// allocated some 130 times the card); go-jose still decodes the signature
// and checks the JWS's shape.

// hashes are the digests the ES, RS and PS algorithms sign.
var hashes = map[string]crypto.Hash{
	"ES256": crypto.SHA256, "RS256": crypto.SHA256, "PS256": crypto.SHA256,
	"ES384": crypto.SHA384, "RS384": crypto.SHA384, "PS384": crypto.SHA384,
	"ES512": crypto.SHA512, "RS512": crypto.SHA512, "PS512": crypto.SHA512,
}

// signs reports whether sig is key's signature under alg of
// prot + "." + payload64. alg must fit key ([fits]); buf is reused for
// EdDSA, which signs the input whole.
func signs(alg string, key any, prot string, payload64, sig []byte, buf *[]byte) bool {
	if alg == "EdDSA" {
		k, ok := key.(ed25519.PublicKey)
		if !ok {
			return false
		}
		*buf = append(append(append((*buf)[:0], prot...), '.'), payload64...)
		return ed25519.Verify(k, *buf, sig)
	}
	h, ok := hashes[alg]
	if !ok {
		return false
	}
	w := h.New()
	io.WriteString(w, prot)
	w.Write([]byte{'.'})
	w.Write(payload64)
	digest := w.Sum(nil)
	switch k := key.(type) {
	case *ecdsa.PublicKey:
		size := (k.Curve.Params().BitSize + 7) / 8
		if alg[:2] != "ES" || len(sig) != 2*size {
			return false
		}
		return ecdsa.Verify(k, digest, new(big.Int).SetBytes(sig[:size]), new(big.Int).SetBytes(sig[size:]))
	case *rsa.PublicKey:
		switch alg[:2] {
		case "RS":
			return rsa.VerifyPKCS1v15(k, h, digest, sig) == nil
		case "PS":
			return rsa.VerifyPSS(k, h, digest, sig, nil) == nil
		}
	}
	return false
}
