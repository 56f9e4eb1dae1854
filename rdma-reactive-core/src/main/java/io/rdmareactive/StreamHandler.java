package io.rdmareactive;

import org.reactivestreams.Publisher;

/**
 * Serves the streams a client opens with {@link Connection#fireAndForget}, {@link Connection#requestStream} or
 * {@link Connection#requestChannel}, and the calls it makes with {@link Connection#requestResponse}: the request
 * message(s) arrive on {@code inbound}, the answer goes out on {@code outbound}. The stream ends when the returned
 * publisher ends; an answer not sent by then is an empty one.
 *
 * <p>For {@link StreamKind#REQUEST_RESPONSE} the handler runs once per call, on the connection's event loop, with the
 * call's own {@code inbound} and {@code outbound}: the request is one message (decoded in place from the receive ring
 * when its subscriber asks for it while the handler runs, else from a copy made when the handler returned), and the
 * answer is the first element of the first {@code send} (the rest of its publisher is cancelled). A handler that
 * fails, or whose send fails, before it answered fails the call with its message ({@link RdmaStreamException}); one
 * that completes without a send answers empty. A call the caller gives up cancels what the handler returned.
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
