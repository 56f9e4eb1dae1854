package io.rdmareactive.perf.compare.transport;

/** Connected streams between a client and a server of one transport; closing it closes both sides. */
public interface Session extends AutoCloseable {

    /**
     * @param stream 0 to {@link SessionSpec#streams()} - 1
     * @return the client side of that stream
     */
    Link link(int stream);

    @Override
    void close();
}
