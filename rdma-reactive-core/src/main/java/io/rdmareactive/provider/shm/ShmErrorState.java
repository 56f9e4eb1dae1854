package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.ConnectionEvent;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The error state of a shared-memory queue pair, as on hardware: entering it moves the file's state to ERROR (which
 * the peer reads), flushes the receive queue, and keeps and reports the first reason once; every later entry only
 * flushes again. Cold path: it allocates the event.
 */
final class ShmErrorState {

    private final ShmQueuePair queuePair;
    private final ShmDevice device;
    private final QueuePairFile file;
    private final ShmReceiveQueue receives;
    private final AtomicBoolean handled = new AtomicBoolean();
    private volatile String reason;

    ShmErrorState(final ShmQueuePair queuePair, final ShmDevice device, final QueuePairFile file,
                  final ShmReceiveQueue receives) {
        this.queuePair = queuePair;
        this.device = device;
        this.file = file;
        this.receives = receives;
    }

    /**
     * Moves to ERROR (if not there already), flushes the receive queue and reports the event once.
     *
     * @param why       why, for {@link #reason()} and the event
     * @param eventType the event to report, or null for none
     */
    void enter(final String why, final ConnectionEvent.Type eventType) {
        file.compareAndSetState(QueuePairFile.STATE_READY, QueuePairFile.STATE_ERROR);
        file.compareAndSetState(QueuePairFile.STATE_RESET, QueuePairFile.STATE_ERROR);
        if (handled.compareAndSet(false, true)) {
            reason = why;
            receives.flush();
            if (eventType != null) {
                device.report(new ConnectionEvent(eventType, queuePair, why));
            }
        } else {
            receives.flush();
        }
    }

    /** The queue pair closes: no later entry reports anything. */
    void silence() {
        handled.set(true);
    }

    /** @return the first reason the queue pair entered the error state for, or null */
    String reason() {
        return reason;
    }
}
