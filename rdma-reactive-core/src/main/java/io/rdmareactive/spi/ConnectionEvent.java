package io.rdmareactive.spi;

/**
 * Something happened to a connection: handed out by {@link RdmaDevice#pollEvents(ConnectionEventHandler, int)}.
 *
 * @param type        what happened
 * @param queuePair   the local queue pair it happened to
 * @param reason      in words, for logs and error messages
 */
public record ConnectionEvent(Type type, QueuePair queuePair, String reason) {

    /** Kinds of connection events. */
    public enum Type {
        /** The peer disconnected on purpose ({@link QueuePair#disconnect()} or closed its queue pair). */
        DISCONNECTED,
        /** The peer went away without disconnecting: its process died or the path broke. */
        PEER_LOST,
        /** The queue pair entered the error state because of a failed work request (on either side). */
        QUEUE_PAIR_ERROR
    }
}
