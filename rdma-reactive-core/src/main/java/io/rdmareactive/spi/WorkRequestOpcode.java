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
    /**
     * Compare the peer's 64-bit word at an 8-byte aligned remote address with an expected value and, if equal, replace
     * it; the word's value before is written to the one 8-byte local buffer. Atomic against every other atomic on the
     * word (see {@link SendWorkRequest#atomic(long, long)}).
     */
    public static final int ATOMIC_CMP_AND_SWP = 5;
    /** Add to the peer's 64-bit word at an 8-byte aligned remote address; its value before goes to the local buffer. */
    public static final int ATOMIC_FETCH_AND_ADD = 6;

    private WorkRequestOpcode() {
    }

    /** @return true for the opcodes this SPI knows */
    public static boolean isValid(final int opcode) {
        return opcode >= RDMA_WRITE && opcode <= ATOMIC_FETCH_AND_ADD;
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
        return opcode == RDMA_WRITE || opcode == RDMA_WRITE_WITH_IMM || opcode == RDMA_READ || isAtomic(opcode);
    }

    /** @return true for the 64-bit atomics, which take an 8-byte aligned remote word and one 8-byte local buffer */
    public static boolean isAtomic(final int opcode) {
        return opcode == ATOMIC_CMP_AND_SWP || opcode == ATOMIC_FETCH_AND_ADD;
    }

    /** @return the opcode's name, as verbs spells it without the prefix */
    public static String name(final int opcode) {
        return switch (opcode) {
            case RDMA_WRITE -> "RDMA_WRITE";
            case RDMA_WRITE_WITH_IMM -> "RDMA_WRITE_WITH_IMM";
            case SEND -> "SEND";
            case SEND_WITH_IMM -> "SEND_WITH_IMM";
            case RDMA_READ -> "RDMA_READ";
            case ATOMIC_CMP_AND_SWP -> "ATOMIC_CMP_AND_SWP";
            case ATOMIC_FETCH_AND_ADD -> "ATOMIC_FETCH_AND_ADD";
            default -> "UNKNOWN(" + opcode + ")";
        };
    }
}
