package io.rdmareactive.fault;

import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionHandler;
import io.rdmareactive.spi.CompletionQueue;
import java.util.ArrayDeque;

/**
 * A completion queue that copies what the real one delivers and hands it on, except where the fault strikes: one
 * completion dropped, a run of them delayed, or two of them swapped.
 */
final class FaultyCompletionQueue implements CompletionQueue {

    private final CompletionQueue delegate;
    private final FaultInjectingDevice device;
    private final FaultInjector injector;
    /** Completions taken from the real queue, in its order, waiting to be handed on. */
    private final ArrayDeque<Held> arrived = new ArrayDeque<>();
    /** Completions the fault holds back. */
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private long seen;
    private long polls;
    private long releaseAtPoll = -1;

    FaultyCompletionQueue(final CompletionQueue delegate, final FaultInjectingDevice device,
                          final FaultInjector injector) {
        this.delegate = delegate;
        this.device = device;
        this.injector = injector;
    }

    CompletionQueue delegate() {
        return delegate;
    }

    @Override
    public int poll(final CompletionHandler handler, final int limit) {
        polls++;
        device.tick();
        final int taken = delegate.poll(completion -> arrived.add(Held.of(completion)), limit);
        if (taken < 0) {
            return taken;
        }
        int delivered = 0;
        if (releaseAtPoll >= 0 && polls >= releaseAtPoll) {
            releaseAtPoll = -1;
            while (!held.isEmpty()) {
                handler.onCompletion(held.poll());
                delivered++;
            }
        }
        while (!arrived.isEmpty()) {
            final Held completion = arrived.poll();
            seen++;
            delivered += route(completion, handler);
        }
        return delivered;
    }

    private int route(final Held completion, final CompletionHandler handler) {
        switch (injector.fault()) {
            case DROP_COMPLETION -> {
                if (seen == injector.trigger() && injector.injected() == null) {
                    injector.struck("dropped completion " + seen + " (" + completion + ")");
                    return 0;
                }
            }
            case DELAY_COMPLETIONS -> {
                if (seen == injector.trigger() && injector.injected() == null) {
                    injector.struck("held completions back for " + injector.window() + " polls from completion "
                        + seen);
                    releaseAtPoll = polls + injector.window();
                }
                if (releaseAtPoll >= 0) {
                    held.add(completion);
                    return 0;
                }
            }
            case REORDER_COMPLETIONS_OF_ONE_QUEUE, REORDER_SEND_AND_RECEIVE -> {
                return reorder(completion, handler);
            }
            default -> {
                // the fault is not in completions
            }
        }
        handler.onCompletion(completion);
        return 1;
    }

    /**
     * Holds the trigger completion back until one of the queue the fault names arrives (its own queue, or the other
     * one), hands that one on first, then the held ones in their order.
     */
    private int reorder(final Held completion, final CompletionHandler handler) {
        if (held.isEmpty()) {
            if (seen >= injector.trigger() && injector.injected() == null) {
                held.add(completion);
                return 0;
            }
            handler.onCompletion(completion);
            return 1;
        }
        final Held first = held.peek();
        final boolean sameQueue = first.isReceive() == completion.isReceive();
        final boolean overtakes = injector.fault() == Fault.REORDER_COMPLETIONS_OF_ONE_QUEUE ? sameQueue : !sameQueue;
        if (!overtakes) {
            if (sameQueue || injector.fault() == Fault.REORDER_COMPLETIONS_OF_ONE_QUEUE) {
                held.add(completion); // keeps its place behind the held one
                return 0;
            }
            handler.onCompletion(completion);
            return 1;
        }
        injector.struck("delivered " + completion + " before " + first);
        handler.onCompletion(completion);
        int delivered = 1;
        while (!held.isEmpty()) {
            handler.onCompletion(held.poll());
            delivered++;
        }
        return delivered;
    }

    @Override
    public int capacity() {
        return delegate.capacity();
    }

    @Override
    public void close() {
        delegate.close();
    }

    /** A completion copied out of the real queue's flyweight. */
    record Held(long wrId, int status, int opcode, int byteLength, int immediate, boolean hasImmediate,
                int queuePairNumber) implements Completion {

        static Held of(final Completion c) {
            return new Held(c.wrId(), c.status(), c.opcode(), c.byteLength(), c.immediate(), c.hasImmediate(),
                c.queuePairNumber());
        }

        @Override
        public String toString() {
            return (isReceive() ? "receive" : "send") + " wr " + Long.toHexString(wrId) + " status " + status;
        }
    }
}
