package io.rdmareactive.spi.conformance;

import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionOpcode;
import io.rdmareactive.spi.CompletionStatus;

/**
 * A copy of a work completion, taken inside the handler (the {@link Completion} flyweight is only valid there), so
 * that tests can assert on completions after polling.
 */
record CompletionRecord(long wrId, int status, int opcode, int byteLength, int immediate, boolean hasImmediate,
                        int queuePairNumber) {

    static CompletionRecord copyOf(final Completion completion) {
        return new CompletionRecord(completion.wrId(), completion.status(), completion.opcode(),
            completion.byteLength(), completion.immediate(), completion.hasImmediate(),
            completion.queuePairNumber());
    }

    boolean isSuccess() {
        return status == CompletionStatus.SUCCESS;
    }

    @Override
    public String toString() {
        return "wc{wrId=" + wrId + ", " + CompletionStatus.name(status) + ", " + CompletionOpcode.name(opcode)
            + ", bytes=" + byteLength + (hasImmediate ? ", imm=0x" + Integer.toHexString(immediate) : "")
            + ", qp=" + queuePairNumber + '}';
    }
}
