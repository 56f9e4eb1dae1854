package io.rdmareactive.spi.conformance;

import io.rdmareactive.spi.Listener;

/**
 * Two connected endpoints: {@link #client} connected to {@link #listener}, which {@link #server} listens on, and
 * the private data the listener saw in the connect request.
 */
record Endpoints(Endpoint client, Endpoint server, Listener listener, String address, byte[] requestPrivateData,
                 String requestPeerDescription) {
}
