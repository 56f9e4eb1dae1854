package io.rdmareactive;

import org.reactivestreams.Publisher;

/**
 * Serves the streams a client opens with {@link Connection#fireAndForget}, {@link Connection#requestResponse},
 * {@link Connection#requestStream} or {@link Connection#requestChannel}: the request message(s) arrive on
 * {@code inbound}, the answer goes out on {@code outbound}. The stream ends when the returned publisher ends; an
 * answer not sent by then is an empty one.
 */
@FunctionalInterface
public interface StreamHandler {

    /**
     * @param kind     what the client asked for
     * @param inbound  the request: one message, or a stream of them for {@link StreamKind#CHANNEL}
     * @param outbound where the answer goes: nothing, one message, or a stream of them
     * @return completes when the stream is served
     */
    Publisher<Void> handle(StreamKind kind, Inbound inbound, Outbound outbound);
}
