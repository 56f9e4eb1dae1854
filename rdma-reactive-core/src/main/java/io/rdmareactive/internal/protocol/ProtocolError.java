package io.rdmareactive.internal.protocol;

/** Codes for what a peer did wrong, and their descriptions; the data path returns codes, never throws. */
final class ProtocolError {

    static final int NONE = 0;
    static final int CREDIT_BACKWARDS = 1;
    static final int CREDIT_BEYOND_SENT = 2;
    static final int CREDIT_MISALIGNED = 3;
    static final int ADVANCE_BEYOND_RING = 4;
    static final int ADVANCE_MISALIGNED = 5;
    static final int FRAME_MALFORMED = 6;
    static final int UNKNOWN_STREAM = 7;

    private ProtocolError() {
    }

    static String describe(final int code) {
        return switch (code) {
            case NONE -> "no error";
            case CREDIT_BACKWARDS -> "the peer moved its consumed position backwards";
            case CREDIT_BEYOND_SENT -> "the peer claimed to have consumed bytes that were never sent";
            case CREDIT_MISALIGNED -> "the peer's consumed position is not frame-aligned";
            case ADVANCE_BEYOND_RING -> "the peer wrote beyond the room it was given in the ring";
            case ADVANCE_MISALIGNED -> "the peer advanced a ring by nothing, or by a length that is not frame-aligned";
            case FRAME_MALFORMED -> "the peer wrote a malformed frame";
            case UNKNOWN_STREAM -> "the peer wrote to a stream that does not exist";
            default -> "protocol error " + code;
        };
    }

    /**
     * @param code       a code of this class
     * @param frameCheck for {@link #FRAME_MALFORMED}, the {@link FrameCheck} code of the check the frame failed
     * @return the description, naming the failed check of a malformed frame (error path: allocates)
     */
    static String describe(final int code, final int frameCheck) {
        return code == FRAME_MALFORMED ? describe(code) + " (" + FrameCheck.describe(frameCheck) + ")" : describe(code);
    }
}
