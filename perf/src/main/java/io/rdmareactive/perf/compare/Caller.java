package io.rdmareactive.perf.compare;

import io.rdmareactive.Connection;
import io.rdmareactive.codec.Codecs;
import reactor.core.publisher.Mono;

/**
 * Where the request-response workloads send their calls: one request, one answer, on whichever transport offers
 * request/response ({@code Connection.requestResponse} of rdma-reactive, RSocket's {@code requestResponse}).
 */
@FunctionalInterface
interface Caller {

    /** @return the answer to {@code request}, or empty if the server answered nothing */
    Mono<byte[]> call(byte[] request);

    /** @return calls through rdma-reactive's {@code requestResponse} on {@code connection} */
    static Caller of(final Connection connection) {
        return request -> connection.requestResponse(request, Codecs.BYTE_ARRAY, Codecs.BYTE_ARRAY);
    }
}
