#!/usr/bin/env sh
# Regenerates the TEST-ONLY TLS material in this folder (OpenSSL 3.x). Never use these keys outside tests.
set -eu
cd "$(dirname "$0")"
DAYS=36500
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Test CA (trusted by the loopback server and by test clients)
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days $DAYS \
  -subj "/CN=http-pool-test-ca" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout ca.key -out ca.crt

# Server certificate: CN=localhost, SAN DNS:localhost, IP:127.0.0.1
openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=localhost" -keyout server.key -out "$TMP/server.csr"
printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n' > "$TMP/server.ext"
openssl x509 -req -in "$TMP/server.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -CAserial "$TMP/ca.srl" \
  -sha256 -days $DAYS -extfile "$TMP/server.ext" -out server.crt

# Client certificate signed by the test CA (clientAuth)
printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n' > "$TMP/client.ext"
openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=http-pool-test-client" -keyout client.key -out "$TMP/client.csr"
openssl x509 -req -in "$TMP/client.csr" -CA ca.crt -CAkey ca.key -CAserial "$TMP/ca.srl" \
  -sha256 -days $DAYS -extfile "$TMP/client.ext" -out client.crt

# A second trusted client certificate, for certificate-rotation tests
openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=http-pool-test-client-rotated" -keyout client-rotated.key \
  -out "$TMP/client-rotated.csr"
openssl x509 -req -in "$TMP/client-rotated.csr" -CA ca.crt -CAkey ca.key -CAserial "$TMP/ca.srl" \
  -sha256 -days $DAYS -extfile "$TMP/client.ext" -out client-rotated.crt

# A second, UNTRUSTED CA and a client certificate signed by it (for failure tests); its key is not kept
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days $DAYS \
  -subj "/CN=http-pool-untrusted-ca" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout "$TMP/untrusted-ca.key" -out untrusted-ca.crt
openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=http-pool-untrusted-client" \
  -keyout untrusted-client.key -out "$TMP/untrusted-client.csr"
openssl x509 -req -in "$TMP/untrusted-client.csr" -CA untrusted-ca.crt -CAkey "$TMP/untrusted-ca.key" \
  -CAcreateserial -CAserial "$TMP/untrusted-ca.srl" -sha256 -days $DAYS -extfile "$TMP/client.ext" \
  -out untrusted-client.crt

# Server certificate for another host name (CN=other-host.invalid, SAN DNS:other-host.invalid), signed by the
# test CA: trusted, but it matches neither localhost nor 127.0.0.1 (hostname-verification tests)
openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=other-host.invalid" -keyout other-host.key \
  -out "$TMP/other-host.csr"
printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:other-host.invalid\n' > "$TMP/other-host.ext"
openssl x509 -req -in "$TMP/other-host.csr" -CA ca.crt -CAkey ca.key -CAserial "$TMP/ca.srl" \
  -sha256 -days $DAYS -extfile "$TMP/other-host.ext" -out other-host.crt

chmod 644 ./*.key ./*.crt
