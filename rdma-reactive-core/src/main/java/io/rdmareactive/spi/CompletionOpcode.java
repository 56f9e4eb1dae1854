package io.rdmareactive.spi;

/** Opcodes of work completions, with the values of {@code enum ibv_wc_opcode}. */
public final class CompletionOpcode {

    public static final int SEND = 0;
    public static final int RDMA_WRITE = 1;
    public static final int RDMA_READ = 2;
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
            default -> throw new IllegalArgumentException("unknown work request opcode " + workRequestOpcode);
        };
    }

    /** @return the opcode's name */
    public static String name(final int opcode) {
        return switch (opcode) {
            case SEND -> "SEND";
            case RDMA_WRITE -> "RDMA_WRITE";
            case RDMA_READ -> "RDMA_READ";
            case RECV -> "RECV";
            case RECV_RDMA_WITH_IMM -> "RECV_RDMA_WITH_IMM";
            default -> "UNKNOWN(" + opcode + ")";
        };
    }
}
