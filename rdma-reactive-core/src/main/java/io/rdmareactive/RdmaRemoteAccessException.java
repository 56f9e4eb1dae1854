package io.rdmareactive;

/**
 * A one-sided operation on a {@link RemoteRegion} was refused. Most refusals are found before anything is posted, from
 * what the region's descriptor says (its connection, its bounds, its rights, the alignment an atomic needs) or from the
 * peer's announcement that it closed the region, and leave the connection as it was. {@link Reason#REFUSED_BY_PEER} is the peer's adapter refusing the operation on the wire
 * (the region was closed, or the descriptor was forged): as on any reliable connection, the queue pair stops at a
 * remote access error, and the connection ends with it.
 */
public class RdmaRemoteAccessException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What was wrong. */
    public enum Reason {
        /** The descriptor came from another connection: its keys name nothing on this one. */
        OTHER_CONNECTION,
        /** The range lies outside the region, or its length is not positive. */
        OUT_OF_BOUNDS,
        /** An atomic's word is not 8-byte aligned. */
        MISALIGNED,
        /** The region does not grant the right the operation needs. */
        NOT_PERMITTED,
        /** The peer announced the region closed: the descriptor's generation is stale. Nothing was posted. */
        REVOKED,
        /** The peer's adapter refused the operation (a closed region, a forged key or range): the connection ended. */
        REFUSED_BY_PEER
    }

    private final Reason reason;

    RdmaRemoteAccessException(final Reason reason, final String message) {
        super(message);
        this.reason = reason;
    }

    /** @return what was wrong */
    public Reason reason() {
        return reason;
    }
}
