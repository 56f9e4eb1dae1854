package io.rdmareactive.spi;

/**
 * Statuses of work completions, with the values of {@code enum ibv_wc_status}, their names, and what usually causes
 * them. Any status but {@link #SUCCESS} moves the queue pair to the error state; every later and outstanding work
 * request then completes with {@link #WR_FLUSH_ERR}.
 */
public final class CompletionStatus {

    public static final int SUCCESS = 0;
    public static final int LOC_LEN_ERR = 1;
    public static final int LOC_QP_OP_ERR = 2;
    public static final int LOC_PROT_ERR = 4;
    public static final int WR_FLUSH_ERR = 5;
    public static final int BAD_RESP_ERR = 7;
    public static final int LOC_ACCESS_ERR = 8;
    public static final int REM_INV_REQ_ERR = 9;
    public static final int REM_ACCESS_ERR = 10;
    public static final int REM_OP_ERR = 11;
    public static final int RETRY_EXC_ERR = 12;
    public static final int RNR_RETRY_EXC_ERR = 13;
    public static final int FATAL_ERR = 19;
    public static final int GENERAL_ERR = 21;

    private CompletionStatus() {
    }

    /** @return the status as verbs names it, for example {@code IBV_WC_RETRY_EXC_ERR} */
    public static String name(final int status) {
        return switch (status) {
            case SUCCESS -> "IBV_WC_SUCCESS";
            case LOC_LEN_ERR -> "IBV_WC_LOC_LEN_ERR";
            case LOC_QP_OP_ERR -> "IBV_WC_LOC_QP_OP_ERR";
            case 3 -> "IBV_WC_LOC_EEC_OP_ERR";
            case LOC_PROT_ERR -> "IBV_WC_LOC_PROT_ERR";
            case WR_FLUSH_ERR -> "IBV_WC_WR_FLUSH_ERR";
            case 6 -> "IBV_WC_MW_BIND_ERR";
            case BAD_RESP_ERR -> "IBV_WC_BAD_RESP_ERR";
            case LOC_ACCESS_ERR -> "IBV_WC_LOC_ACCESS_ERR";
            case REM_INV_REQ_ERR -> "IBV_WC_REM_INV_REQ_ERR";
            case REM_ACCESS_ERR -> "IBV_WC_REM_ACCESS_ERR";
            case REM_OP_ERR -> "IBV_WC_REM_OP_ERR";
            case RETRY_EXC_ERR -> "IBV_WC_RETRY_EXC_ERR";
            case RNR_RETRY_EXC_ERR -> "IBV_WC_RNR_RETRY_EXC_ERR";
            case 14 -> "IBV_WC_LOC_RDD_VIOL_ERR";
            case 15 -> "IBV_WC_REM_INV_RD_REQ_ERR";
            case 16 -> "IBV_WC_REM_ABORT_ERR";
            case 17 -> "IBV_WC_INV_EECN_ERR";
            case 18 -> "IBV_WC_INV_EEC_STATE_ERR";
            case FATAL_ERR -> "IBV_WC_FATAL_ERR";
            case 20 -> "IBV_WC_RESP_TIMEOUT_ERR";
            case GENERAL_ERR -> "IBV_WC_GENERAL_ERR";
            default -> "IBV_WC_STATUS(" + status + ")";
        };
    }

    /** @return what usually causes the status, in a sentence a user can act on */
    public static String explain(final int status) {
        return switch (status) {
            case SUCCESS -> "the work request completed";
            case LOC_LEN_ERR -> "a message was longer than the receive buffers posted for it, or than the port allows";
            case LOC_QP_OP_ERR -> "the work request was malformed for this queue pair (too many gather entries, inline "
                + "data too long, an opcode this queue pair type does not support)";
            case LOC_PROT_ERR -> "a local buffer is outside its memory region, or the lkey is wrong or deregistered";
            case WR_FLUSH_ERR -> "the queue pair was already in the error state (an earlier error, a disconnect or a "
                + "dead peer); this request was flushed, not executed";
            case LOC_ACCESS_ERR -> "the local memory region lacks the access this request needs (LOCAL_WRITE for "
                + "receive buffers and read targets)";
            case REM_INV_REQ_ERR -> "the peer found the request invalid: a message longer than its receive buffers, or "
                + "an opcode its queue pair does not allow";
            case REM_ACCESS_ERR -> "the peer refused the remote access: wrong or deregistered rkey, an address outside "
                + "the region, or a region without REMOTE_WRITE/REMOTE_READ";
            case REM_OP_ERR -> "the peer could not complete the operation (its receive queue or completion queue "
                + "failed)";
            case RETRY_EXC_ERR -> "the peer did not answer within the transport retries: it is dead, its queue pair is "
                + "in the error state, or the path is broken";
            case RNR_RETRY_EXC_ERR -> "the peer had no receive posted when a SEND or WRITE_WITH_IMM arrived "
                + "(receiver not ready) and the RNR retries ran out: post receives before the peer sends";
            case FATAL_ERR -> "the adapter or provider failed";
            default -> "see the verbs documentation of " + name(status);
        };
    }
}
