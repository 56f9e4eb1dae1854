package io.rdmareactive.micronaut;

/** What a listener does with a message whose method failed; see {@link RdmaErrorStrategy}. */
public enum ErrorStrategy {
    /**
     * Call the method again for the same message, after {@link RdmaErrorStrategy#retryDelay()} growing by
     * {@link RdmaErrorStrategy#multiplier()}, at most {@link RdmaErrorStrategy#retryAttempts()} times; when the last
     * attempt fails, go on as {@link #SKIP}.
     */
    RETRY,
    /** Report the failure to the exception handler and go on with the stream's next message. */
    SKIP,
    /** Report the failure to the exception handler and end the stream with the error: the client's call fails. */
    STOP
}
