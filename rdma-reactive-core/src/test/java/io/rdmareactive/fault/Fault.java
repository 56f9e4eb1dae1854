package io.rdmareactive.fault;

/** The faults {@link FaultInjector} knows, and whether the protocol promises to recover from each. */
public enum Fault {
    /** One completion never reaches the poller: what a broken provider or adapter would do. */
    DROP_COMPLETION(false),
    /** Every completion from a point on is held back for a while, then delivered in order: a slow adapter. */
    DELAY_COMPLETIONS(true),
    /** Two completions of the same work queue arrive swapped, which a reliable connection never does. */
    REORDER_COMPLETIONS_OF_ONE_QUEUE(false),
    /** A send completion and a receive completion arrive swapped: legal, as the two queues are not ordered. */
    REORDER_SEND_AND_RECEIVE(true),
    /** A post of send work requests fails (EINVAL), as a full or broken queue pair answers. */
    FAIL_POST_SEND(false),
    /** A post of receive work requests fails (EINVAL). */
    FAIL_POST_RECEIVE(false),
    /** The queue pair goes into the error state, as an adapter reports it (an asynchronous error event). */
    QUEUE_PAIR_ERROR(false),
    /** The victim's writes (its credit and receive-grant words first) are held back for a while, then posted. */
    WITHHOLD_CREDIT(true);

    private final boolean recoverable;

    Fault(final boolean recoverable) {
        this.recoverable = recoverable;
    }

    /** @return true if the protocol promises that the connection survives this fault and loses nothing */
    public boolean recoverable() {
        return recoverable;
    }
}
