package io.rdmareactive.spi;

/** Opcodes of send work requests, with the values of {@code enum ibv_wr_opcode}. */
public final class WorkRequestOpcode {

    /** Write local bytes into the peer's memory at a remote address; consumes no receive on the peer. */
    public static final int RDMA_WRITE = 0;
    /** As {@link #RDMA_WRITE}, then consume one posted receive on the peer, which completes with the immediate. */
    public static final int RDMA_WRITE_WITH_IMM = 1;
    /** Send local bytes into the buffers of the peer's next posted receive. */
    public static final int SEND = 2;
    /** As {@link #SEND}, carrying a 32-bit immediate into the receive completion. */
    public static final int SEND_WITH_IMM = 3;
    /** Read bytes of the peer's memory into local memory. */
    public static final int RDMA_READ = 4;

    private WorkRequestOpcode() {
    }

    /** @return true for the opcodes this SPI knows */
    public static boolean isValid(final int opcode) {
        return opcode >= RDMA_WRITE && opcode <= RDMA_READ;
    }

    /** @return true if the opcode consumes a posted receive on the peer */
    public static boolean consumesReceive(final int opcode) {
        return opcode == RDMA_WRITE_WITH_IMM || opcode == SEND || opcode == SEND_WITH_IMM;
    }

    /** @return true if the opcode carries an immediate */
    public static boolean hasImmediate(final int opcode) {
        return opcode == RDMA_WRITE_WITH_IMM || opcode == SEND_WITH_IMM;
    }

    /** @return true if the opcode addresses the peer's memory (remote address and key) */
    public static boolean isOneSided(final int opcode) {
        return opcode == RDMA_WRITE || opcode == RDMA_WRITE_WITH_IMM || opcode == RDMA_READ;
    }

    /** @return the opcode's name, as verbs spells it without the prefix */
    public static String name(final int opcode) {
        return switch (opcode) {
            case RDMA_WRITE -> "RDMA_WRITE";
            case RDMA_WRITE_WITH_IMM -> "RDMA_WRITE_WITH_IMM";
            case SEND -> "SEND";
            case SEND_WITH_IMM -> "SEND_WITH_IMM";
            case RDMA_READ -> "RDMA_READ";
            default -> "UNKNOWN(" + opcode + ")";
        };
    }
}
