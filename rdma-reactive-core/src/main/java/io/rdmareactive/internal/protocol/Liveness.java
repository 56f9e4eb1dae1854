package io.rdmareactive.internal.protocol;

/**
 * Whether the peer of one connection is alive, and when this side must prove that it is: every write with an
 * immediate and every keepalive the peer sends counts as a word from it; a peer silent for longer than the liveness
 * timeout is dead or stuck; this side sends a keepalive when it has written nothing for the keepalive interval. Loop
 * thread only; allocates nothing.
 */
final class Liveness {

    private final long timeoutNanos;
    private final long keepaliveNanos;
    private final long timeoutMillis;
    private long lastReceivedNanos;
    /** When the last duty cycle ran: a long gap since then was this side's own pause, not the peer's silence. */
    private long lastCycleNanos;
    private long lastSentNanos;

    Liveness(final ProtocolOptions options) {
        this.timeoutNanos = options.livenessTimeout().toNanos();
        this.keepaliveNanos = options.keepaliveInterval().toNanos();
        this.timeoutMillis = options.livenessTimeout().toMillis();
    }

    /** The connection starts now: both clocks run from here. */
    void start(final long now) {
        lastReceivedNanos = now;
        lastSentNanos = now;
    }

    /**
     * A gap of more than half the liveness timeout since this side's last duty cycle was this side's own pause (a
     * stop-the-world collection, a stopped process, a stalled virtual machine): the peer's silence over that time is
     * not held against it, or every connection would end after a long enough pause of this side alone. An idle
     * strategy parks for at most a second, far less than half the default timeout of 5 s.
     */
    void forgiveOwnPause(final long now) {
        final long gap = now - lastCycleNanos;
        if (lastCycleNanos != 0 && gap > timeoutNanos / 2) {
            lastReceivedNanos += gap;
        }
        lastCycleNanos = now;
    }

    /**
     * The loop polls the connection again after it parked it: the time parked was no pause of this side (a parked
     * connection is woken for the peer's words and for its own deadlines, {@link #nextDeadline()}).
     */
    void resume(final long now) {
        lastCycleNanos = now;
    }

    /** @return when a parked connection must be looked at again: a keepalive due, or the peer's silence too long */
    long nextDeadline() {
        return Math.min(lastSentNanos + keepaliveNanos, lastReceivedNanos + timeoutNanos) + 1;
    }

    /** A word from the peer arrived. */
    void onReceived(final long now) {
        lastReceivedNanos = now;
    }

    /** This side told the peer it is alive (a write with an immediate, or a keepalive). */
    void onSent(final long now) {
        lastSentNanos = now;
    }

    /** @return null while the peer is alive, else why the connection must end */
    String check(final long now) {
        if (now - lastReceivedNanos > timeoutNanos) {
            return "no word from the peer for " + (now - lastReceivedNanos) / 1_000_000 + " ms (liveness timeout "
                + timeoutMillis + " ms): it is dead or stuck";
        }
        return null;
    }

    /** @return true when this side has been silent for the keepalive interval */
    boolean keepaliveDue(final long now) {
        return now - lastSentNanos > keepaliveNanos;
    }
}
