package io.rdmareactive.spi;

/** States of a queue pair, as verbs names them (a connected queue pair is {@link #READY_TO_SEND}). */
public enum QueuePairState {
    /** Created, not connected. */
    RESET,
    /** Connected: work requests of both queues are executed. */
    READY_TO_SEND,
    /** An error, a disconnect or a dead peer: every outstanding and later work request completes flushed. */
    ERROR,
    /** Destroyed. */
    CLOSED
}
