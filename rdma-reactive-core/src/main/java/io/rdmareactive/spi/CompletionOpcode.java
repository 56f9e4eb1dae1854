package io.rdmareactive.spi;

/** Opcodes of work completions, with the values of {@code enum ibv_wc_opcode}. */
public final class CompletionOpcode {

    public static final int SEND = 0;
    public static final int RDMA_WRITE = 1;
    public static final int RDMA_READ = 2;
    /** An {@link WorkRequestOpcode#ATOMIC_CMP_AND_SWP} completed. */
    public static final int COMP_SWAP = 3;
    /** An {@link WorkRequestOpcode#ATOMIC_FETCH_AND_ADD} completed. */
    public static final int FETCH_ADD = 4;
    /** A posted receive consumed by a SEND or SEND_WITH_IMM. */
    public static final int RECV = 0x80;
    /** A posted receive consumed by an RDMA_WRITE_WITH_IMM. */
    public static final int RECV_RDMA_WITH_IMM = 0x81;

    private CompletionOpcode() {
    }

    /** @return true for completions of posted receives */
    public static boolean isReceive(final int opcode) {
        return (opcode & RECV) != 0;
    }

    /** @return the send-side completion opcode for a work request opcode */
    public static int ofWorkRequest(final int workRequestOpcode) {
        return switch (workRequestOpcode) {
            case WorkRequestOpcode.RDMA_WRITE, WorkRequestOpcode.RDMA_WRITE_WITH_IMM -> RDMA_WRITE;
            case WorkRequestOpcode.SEND, WorkRequestOpcode.SEND_WITH_IMM -> SEND;
            case WorkRequestOpcode.RDMA_READ -> RDMA_READ;
            case WorkRequestOpcode.ATOMIC_CMP_AND_SWP -> COMP_SWAP;
            case WorkRequestOpcode.ATOMIC_FETCH_AND_ADD -> FETCH_ADD;
            default -> throw new IllegalArgumentException("unknown work request opcode " + workRequestOpcode);
        };
    }

    /** @return the opcode's name */
    public static String name(final int opcode) {
        return switch (opcode) {
            case SEND -> "SEND";
            case RDMA_WRITE -> "RDMA_WRITE";
            case RDMA_READ -> "RDMA_READ";
            case COMP_SWAP -> "COMP_SWAP";
            case FETCH_ADD -> "FETCH_ADD";
            case RECV -> "RECV";
            case RECV_RDMA_WITH_IMM -> "RECV_RDMA_WITH_IMM";
            default -> "UNKNOWN(" + opcode + ")";
        };
    }
}
