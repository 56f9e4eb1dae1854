package io.rdmareactive.spi;

/** Things a device can do, so that the protocol above picks the cheapest path each provider offers. */
public enum DeviceCapability {
    /** RDMA READ of a peer's memory. */
    RDMA_READ,
    /** 64-bit compare-and-swap and fetch-and-add on a peer's memory, atomic against each other on the same word. */
    ATOMICS,
    /** RDMA WRITE WITH IMMEDIATE. */
    WRITE_WITH_IMMEDIATE,
    /** SEND and SEND WITH IMMEDIATE into posted receives. */
    SEND_RECEIVE,
    /** More than one gather/scatter entry per work request. */
    SCATTER_GATHER,
    /** Small payloads copied into the work request at post time. */
    INLINE_DATA,
    /**
     * The peer's registered memory can be mapped and addressed directly by this process (shared memory), so a
     * sender may encode straight into the peer's receive ring with no copy and no completion in between.
     */
    DIRECT_PEER_ACCESS,
    /** Peers may be on other hosts. */
    CROSS_HOST
}
