#!/bin/sh
# make_certs.sh DIR - test PKI for the fake API server, made with openssl.
#
#   ca.crt ca.key                 the cluster CA
#   server.crt server.key         127.0.0.1 / localhost / kubernetes.test,
#                                 signed by ca
#   client.crt client.key         CN=kp-tester, O=system:masters, signed by ca
#   wrong-ca.crt wrong-ca.key     an unrelated CA
#   wrong-server.crt/.key         the server names, signed by wrong-ca
#   wrong-client.crt/.key         a client certificate signed by wrong-ca
#
# Keys are EC P-256 (fast to make); nothing is reused between runs.
set -eu

dir=${1:?usage: make_certs.sh DIR}
mkdir -p "$dir"
cd "$dir"

newkey() {
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
        -out "$1" 2>/dev/null
}

# ca NAME CN
ca() {
    newkey "$1.key"
    openssl req -x509 -new -key "$1.key" -sha256 -days 2 \
        -subj "/CN=$2" -out "$1.crt" \
        -addext "basicConstraints=critical,CA:TRUE" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
}

# leaf NAME CA SUBJECT EXTFILE-CONTENT
leaf() {
    newkey "$1.key"
    openssl req -new -key "$1.key" -subj "$3" -out "$1.csr" 2>/dev/null
    printf '%s\n' "$4" > "$1.ext"
    openssl x509 -req -in "$1.csr" -CA "$2.crt" -CAkey "$2.key" \
        -CAcreateserial -days 2 -sha256 -extfile "$1.ext" \
        -out "$1.crt" 2>/dev/null
    rm -f "$1.csr" "$1.ext"
}

server_ext='basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.test'
client_ext='basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth'

ca ca fake-apiserver-ca
ca wrong-ca wrong-ca
leaf server ca /CN=kube-apiserver "$server_ext"
leaf client ca "/O=system:masters/CN=kp-tester" "$client_ext"
leaf wrong-server wrong-ca /CN=kube-apiserver "$server_ext"
leaf wrong-client wrong-ca "/O=system:masters/CN=intruder" "$client_ext"
chmod 600 ./*.key
rm -f ./*.srl
