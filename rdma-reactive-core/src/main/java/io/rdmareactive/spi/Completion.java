package io.rdmareactive.spi;

/**
 * A work completion, read through a flyweight that the completion queue reuses: valid only inside
 * {@link CompletionHandler#onCompletion(Completion)}. Copy out what must outlive the call.
 */
public interface Completion {

    /** @return the work request id given when the request was posted */
    long wrId();

    /** @return the {@link CompletionStatus} */
    int status();

    /** @return the {@link CompletionOpcode}; on verbs it is undefined unless the status is success */
    int opcode();

    /** @return bytes received, for receive completions */
    int byteLength();

    /** @return the immediate, if {@link #hasImmediate()} */
    int immediate();

    /** @return true if the completion carries an immediate */
    boolean hasImmediate();

    /** @return the number of the local queue pair the request was posted on */
    int queuePairNumber();

    /** @return true if the status is {@link CompletionStatus#SUCCESS} */
    default boolean isSuccess() {
        return status() == CompletionStatus.SUCCESS;
    }

    /** @return true if this completes a posted receive */
    default boolean isReceive() {
        return CompletionOpcode.isReceive(opcode());
    }
}
