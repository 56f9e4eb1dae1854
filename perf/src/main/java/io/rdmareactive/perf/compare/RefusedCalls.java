package io.rdmareactive.perf.compare;

import java.time.Duration;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * Where calls refused with {@code RdmaStreamsBusyException} wait for their turn, first come first served: as the
 * exception's contract suggests, a refused call is tried again once an earlier call has ended (which frees its
 * stream), one waiting call per call ended. Trying again at once, or after a fixed pause, makes a storm of refusals
 * that starves the calls in flight. A tick every {@link #TICK} also lets one waiting call try, so that a wake-up lost
 * to a race (a call refused just as the last one in flight ended) cannot leave calls waiting for good.
 */
final class RefusedCalls implements Disposable {

    static final Duration TICK = Duration.ofMillis(1);

    private final Deque<MonoSink<Void>> waiting = new ConcurrentLinkedDeque<>();
    private final Disposable ticker = Flux.interval(TICK).subscribe(tick -> wake());

    /**
     * @param again whether the caller was refused after waiting already: it keeps its place at the front, so that
     *              no call is sent to the back over and over
     * @return completes when it is the caller's turn to try again
     */
    Mono<Void> turn(final boolean again) {
        return Mono.create(again ? waiting::addFirst : waiting::addLast);
    }

    /** A call ended: the longest-waiting refused call, if any, tries again now (on this thread). */
    void wake() {
        final MonoSink<Void> next = waiting.pollFirst();
        if (next != null) {
            next.success();
        }
    }

    /** Stops the tick, and lets every call still waiting try again (it ends as its connection lets it). */
    @Override
    public void dispose() {
        ticker.dispose();
        MonoSink<Void> next;
        while ((next = waiting.pollFirst()) != null) {
            next.success();
        }
    }

    @Override
    public boolean isDisposed() {
        return ticker.isDisposed();
    }
}
