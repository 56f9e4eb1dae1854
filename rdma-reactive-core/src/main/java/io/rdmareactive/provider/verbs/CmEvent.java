package io.rdmareactive.provider.verbs;

/**
 * A connection-manager event, copied out of librdmacm's event before it is acknowledged (acknowledging frees the
 * event and its private data).
 *
 * @param type        {@code enum rdma_cm_event_type}
 * @param status      the event's status (for REJECTED, the CM reject reason; for errors, a negative errno)
 * @param id          the address of the {@code rdma_cm_id} it concerns (for CONNECT_REQUEST, the new one)
 * @param listenId    for CONNECT_REQUEST, the address of the listening id; otherwise 0
 * @param privateData the private data it carried, as delivered (possibly padded by the CM)
 * @param peer        for CONNECT_REQUEST, the peer's address as text; otherwise null
 * @param peerQpNumber for CONNECT_REQUEST and ESTABLISHED, the peer's queue-pair number; otherwise 0
 */
record CmEvent(int type, int status, long id, long listenId, byte[] privateData, String peer, int peerQpNumber) {

    static final int ADDR_RESOLVED = 0;
    static final int ADDR_ERROR = 1;
    static final int ROUTE_RESOLVED = 2;
    static final int ROUTE_ERROR = 3;
    static final int CONNECT_REQUEST = 4;
    static final int CONNECT_RESPONSE = 5;
    static final int CONNECT_ERROR = 6;
    static final int UNREACHABLE = 7;
    static final int REJECTED = 8;
    static final int ESTABLISHED = 9;
    static final int DISCONNECTED = 10;
    static final int DEVICE_REMOVAL = 11;
    static final int TIMEWAIT_EXIT = 15;

    /** The CM reject reason a peer's application gives ({@code IB_CM_REJ_CONSUMER_DEFINED}). */
    static final int REJECT_CONSUMER_DEFINED = 28;
    /** The CM reject reason when nobody listens on the port ({@code IB_CM_REJ_INVALID_SERVICE_ID}). */
    static final int REJECT_INVALID_SERVICE_ID = 8;

    /** @return the event's name as librdmacm spells it */
    static String name(final int type) {
        return switch (type) {
            case ADDR_RESOLVED -> "RDMA_CM_EVENT_ADDR_RESOLVED";
            case ADDR_ERROR -> "RDMA_CM_EVENT_ADDR_ERROR";
            case ROUTE_RESOLVED -> "RDMA_CM_EVENT_ROUTE_RESOLVED";
            case ROUTE_ERROR -> "RDMA_CM_EVENT_ROUTE_ERROR";
            case CONNECT_REQUEST -> "RDMA_CM_EVENT_CONNECT_REQUEST";
            case CONNECT_RESPONSE -> "RDMA_CM_EVENT_CONNECT_RESPONSE";
            case CONNECT_ERROR -> "RDMA_CM_EVENT_CONNECT_ERROR";
            case UNREACHABLE -> "RDMA_CM_EVENT_UNREACHABLE";
            case REJECTED -> "RDMA_CM_EVENT_REJECTED";
            case ESTABLISHED -> "RDMA_CM_EVENT_ESTABLISHED";
            case DISCONNECTED -> "RDMA_CM_EVENT_DISCONNECTED";
            case DEVICE_REMOVAL -> "RDMA_CM_EVENT_DEVICE_REMOVAL";
            case TIMEWAIT_EXIT -> "RDMA_CM_EVENT_TIMEWAIT_EXIT";
            default -> "RDMA_CM_EVENT(" + type + ")";
        };
    }

    @Override
    public String toString() {
        return name(type) + " (status " + status + ")";
    }
}
