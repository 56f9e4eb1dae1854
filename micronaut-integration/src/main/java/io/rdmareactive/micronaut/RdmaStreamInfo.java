package io.rdmareactive.micronaut;

import io.rdmareactive.StreamKind;
import java.util.Map;

/**
 * What a listener method may learn about the stream it serves: declare a parameter of this type.
 *
 * @param server  the name of the server ({@code rdma.servers.<name>}) that accepted the stream
 * @param address the address that server listens at
 * @param channel the channel the stream was opened for
 * @param kind    the interaction model the client chose
 * @param headers the headers the client sent with the stream's first message
 */
public record RdmaStreamInfo(String server, String address, String channel, StreamKind kind,
                             Map<String, String> headers) {
}
