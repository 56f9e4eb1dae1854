package io.rdmareactive;

import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * A connection between two processes: messages in through {@link #inbound()}, out through {@link #outbound()}.
 * {@link #dispose()} closes it and frees its rings, registrations and files.
 */
public interface Connection extends Disposable {

    /** @return the messages the peer sends */
    Inbound inbound();

    /** @return where to send messages to the peer */
    Outbound outbound();

    /** @return who the peer is, for logs */
    String peer();

    /** @return a Mono that completes when the connection is closed, or fails with why it ended */
    Mono<Void> onDispose();
}
