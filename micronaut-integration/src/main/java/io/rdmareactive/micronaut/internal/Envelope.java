package io.rdmareactive.micronaut.internal;

/**
 * The header this module puts in front of each message body, so that a server learns which channel a stream is for
 * and which headers came with it. The core protocol carries bodies only; the header travels inside them.
 *
 * <pre>
 *  0        1        2
 *  +--------+--------+-------------------------------------------------------------+
 *  | magic  | flags  | [route] [headers] body ...                                  |
 *  +--------+--------+-------------------------------------------------------------+
 *  route   (flag ROUTE):   u16 length, UTF-8 bytes (1..255)          first message of a stream only
 *  headers (flag HEADERS): u16 count (1..64), then per header u16 name length, name, u16 value length, value
 *  body:   the rest of the message, written in place by the body's codec (so still zero-copy)
 * </pre>
 * Integers are little-endian. Everything is checked before it is read: a garbled header is a
 * {@link RdmaEnvelopeException} that names what is wrong, never an index error.
 */
final class Envelope {

    static final byte MAGIC = (byte) 0xE7;
    static final int FLAG_ROUTE = 1;
    static final int FLAG_HEADERS = 2;
    static final int FIXED_LENGTH = 2;
    static final int MAX_ROUTE_LENGTH = 255;
    static final int MAX_HEADERS = 64;
    static final int MAX_HEADER_LENGTH = 4096;

    private Envelope() {
    }
}
