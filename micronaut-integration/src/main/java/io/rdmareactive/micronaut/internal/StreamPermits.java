package io.rdmareactive.micronaut.internal;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * As many permits as a connection has request streams: a call holds one while its stream is open, and calls beyond
 * that wait here, in order (a bounded number: one per caller), instead of failing because every stream is busy.
 */
final class StreamPermits {

    private final int permits;
    private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
    private int used;

    StreamPermits(final int permits) {
        this.permits = permits;
    }

    <T> Flux<T> run(final Flux<T> call) {
        return Flux.usingWhen(acquire(), ignored -> call, ignored -> release(), (ignored, error) -> release(),
            ignored -> release());
    }

    private Mono<Boolean> acquire() {
        return Mono.create(sink -> {
            final Waiter waiter = new Waiter(sink);
            final boolean now;
            synchronized (this) {
                now = used < permits;
                if (now) {
                    used++;
                } else {
                    waiting.add(waiter);
                }
            }
            if (now) {
                // a cancel racing the hand-over drops the permit with it, and runs this hook only then: give it back
                sink.onCancel(() -> release().subscribe());
                sink.success(Boolean.TRUE);
            } else {
                sink.onCancel(() -> {
                    if (waiter.cancelled.compareAndSet(false, true)) {
                        synchronized (this) {
                            waiting.remove(waiter);
                        }
                    } else {
                        release().subscribe(); // it was granted in the meantime: give it back
                    }
                });
            }
        });
    }

    private Mono<Void> release() {
        return Mono.fromRunnable(() -> {
            while (true) {
                final Waiter next;
                synchronized (this) {
                    next = waiting.poll();
                    if (next == null) {
                        used--;
                        return;
                    }
                }
                if (next.cancelled.compareAndSet(false, true)) {
                    next.sink.success(Boolean.TRUE); // the permit passes on
                    return;
                }
            }
        });
    }

    /** @return permits in use */
    synchronized int used() {
        return used;
    }

    private static final class Waiter {
        final MonoSink<Boolean> sink;
        final AtomicBoolean cancelled = new AtomicBoolean(); // true once granted or cancelled

        Waiter(final MonoSink<Boolean> sink) {
            this.sink = sink;
        }
    }
}
