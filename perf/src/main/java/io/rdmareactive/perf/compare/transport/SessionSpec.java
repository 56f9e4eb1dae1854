package io.rdmareactive.perf.compare.transport;

import java.util.function.IntFunction;

/**
 * What a session is for.
 *
 * @param echo          {@code true}: the server sends every message back, and {@code replies} receives them on the
 *                      client; {@code false}: the server hands every message to {@code consumers.apply(stream)}
 * @param streams       how many independent streams (each with its own link)
 * @param messageLength the length of every message of the session, in bytes
 * @param replies       the client's handler of echoes (echo sessions only)
 * @param consumers     the server's consumer per stream (consumer sessions only)
 */
public record SessionSpec(boolean echo, int streams, int messageLength, MessageHandler replies,
                          IntFunction<MessageHandler> consumers) {

    /** @return a one-stream session whose server echoes to {@code replies} */
    public static SessionSpec echo(final int messageLength, final MessageHandler replies) {
        return new SessionSpec(true, 1, messageLength, replies, null);
    }

    /** @return a session of {@code streams} streams whose server hands each message to its stream's consumer */
    public static SessionSpec consume(final int streams, final int messageLength,
                                      final IntFunction<MessageHandler> consumers) {
        return new SessionSpec(false, streams, messageLength, null, consumers);
    }
}
