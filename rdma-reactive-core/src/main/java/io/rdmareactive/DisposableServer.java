package io.rdmareactive;

import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * A bound server. {@link #dispose()} stops listening and closes its connections, returning at once from any thread;
 * {@link #onDispose()} completes once they have closed and everything they held is freed.
 */
public interface DisposableServer extends Disposable {

    /** @return the address it listens at */
    String address();

    /** @return a Mono that completes when the server is disposed */
    Mono<Void> onDispose();

    /** @return the counters of the runtime that serves this server's connections, as they are now */
    RdmaCounters counters();
}
