package io.rdmareactive.codec;

import java.util.Objects;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Turns values of type {@code T} into bytes written straight into a caller's buffer range, and bytes read in place
 * from a caller's buffer range back into values.
 *
 * <p>The protocol layer uses a codec like this, once per message:
 * <pre>{@code
 * int length = codec.encodedLength(value);          // before the claim: exact, so one claim suffices
 * int index = ring.tryClaim(type, length);          // claim exactly that much registered memory
 * codec.encode(value, ring.buffer(), index, length); // write in place; returns length
 * ring.commit(index);
 * ...
 * T value = codec.decode(frameBuffer, payloadOffset, payloadLength); // on the receiving side, in place
 * }</pre>
 *
 * <h2>Lengths</h2>
 * {@link #encodedLength(Object)} is exact, not a bound: {@link #encode encode} writes exactly that many bytes for
 * the same value, as long as the value is not modified in between. An exact length lets the sender claim a ring
 * record of exactly the payload's size, with no slack to waste ring space and no second length to carry in the
 * frame. If the value did change in between (say a caller moved its {@code ByteBuffer}'s limit), encode still
 * stays inside the range it was given: it writes the new encoding if it fits, or throws; the caller compares the
 * returned count with what it claimed.
 *
 * <h2>Ranges, and what happens when they are wrong</h2>
 * A codec reads and writes only inside the range it is given: {@code [offset, offset + maxLength)} for encode,
 * {@code [offset, offset + length)} for decode. More precisely, encode writes exactly the bytes
 * {@code [offset, offset + returned)} and nothing else. Before touching the buffer it checks that the range is
 * well formed and lies inside the buffer (an {@linkplain MutableDirectBuffer#isExpandable() expandable} buffer may
 * grow to hold an encode range), that the value fits, and, for decode, that the bytes are a valid encoding. Any
 * violation is a {@link CodecException} whose message names the codec, the offending length and the range: never
 * an {@link IndexOutOfBoundsException}, never a read or write past the range. Built-in codecs check before they
 * write, so a failed encode writes nothing; other codecs may leave the range partly written and the caller must
 * abandon it (abort the claim). {@code null} arguments are programming errors and throw
 * {@link NullPointerException}. No other exception is thrown, and none at all for valid input.
 *
 * <h2>Who owns what</h2>
 * <ul>
 *   <li>The caller owns the buffers and the values. A codec uses them only for the duration of the call and keeps
 *       no reference to either afterwards, with one documented exception: a codec whose
 *       {@link #decodesToView()} is {@code true} returns a value that is a view over the decode range.</li>
 *   <li>A value returned by a copying decoder ({@link #decodesToView()} {@code false}) is the caller's to keep;
 *       the decode range may be reused as soon as decode returns.</li>
 *   <li>A value returned by a viewing decoder is valid only while the range it views is: for a received message,
 *       until the subscriber's {@code onNext} returns, after which the ring space is handed back to the sender and
 *       overwritten. Copy it if you need it longer.</li>
 *   <li>Received bytes are untrusted. A copying decoder copies before it validates, so a peer that rewrites the
 *       range while it is being decoded cannot make it return an unvalidated value.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * A codec must be safe to use from several threads at once unless its documentation says otherwise; the built-in
 * codecs in {@link Codecs} are stateless and shareable, except the views from
 * {@link Codecs#reusableDirectBufferView()}, which belong to one thread (one subscriber) at a time.
 *
 * @param <T> the type of the values this codec encodes and decodes
 */
public interface Codec<T> {

    /**
     * A short, stable name for messages and metrics, such as {@code "utf8-string"}.
     *
     * @return this codec's name
     */
    String name();

    /**
     * The exact number of bytes {@link #encode encode} will write for {@code value}; called before the claim.
     *
     * @param value the value to be encoded
     * @return the encoded length, at least zero
     * @throws CodecException if the value cannot be encoded at all (for example its encoding would exceed
     *     {@link Integer#MAX_VALUE} bytes)
     * @throws NullPointerException if {@code value} is {@code null}
     */
    int encodedLength(T value);

    /**
     * Writes the encoding of {@code value} straight into {@code buffer} at {@code offset}, using at most
     * {@code maxLength} bytes.
     *
     * @param value the value to encode
     * @param buffer the destination, typically claimed space in a ring in registered memory
     * @param offset where the range starts in {@code buffer}
     * @param maxLength the length of the range, normally exactly {@link #encodedLength(Object)}
     * @return the number of bytes written, from {@code offset} on
     * @throws CodecException if the range is malformed or not inside {@code buffer}, or the encoding does not fit
     *     in {@code maxLength} bytes
     * @throws NullPointerException if {@code value} or {@code buffer} is {@code null}
     */
    int encode(T value, MutableDirectBuffer buffer, int offset, int maxLength);

    /**
     * Reads a value from exactly the bytes {@code [offset, offset + length)} of {@code buffer}.
     *
     * @param buffer the source, typically a received frame in a ring
     * @param offset where the encoding starts in {@code buffer}
     * @param length the length of the encoding
     * @return the decoded value; a view over the range when {@link #decodesToView()} is {@code true}
     * @throws CodecException if the range is malformed or not inside {@code buffer}, or the bytes are not a valid
     *     encoding
     * @throws NullPointerException if {@code buffer} is {@code null}
     */
    T decode(DirectBuffer buffer, int offset, int length);

    /**
     * The bytes {@link #encode encode} would write for {@code value}, when they already lie in a buffer: one whose
     * range {@code [0, encodedLength(value))} holds exactly that encoding; {@code null}, the default, when encoding
     * transforms the value. A sender uses it for a message larger than one frame: it copies each frame's share
     * straight from this buffer, where otherwise it encodes the whole message into a staging buffer first and copies
     * the frames from there (two copies of the message instead of one). The buffer is read until the message's last
     * frame is written, so, as for encode, the value must not change meanwhile.
     *
     * @param value the value to be encoded
     * @return a buffer holding the encoding from index 0, or {@code null} to have the value encoded
     * @throws NullPointerException if {@code value} is {@code null}
     */
    default DirectBuffer encodedBytes(final T value) {
        Objects.requireNonNull(value, "value");
        return null;
    }

    /**
     * Whether {@link #decode decode} returns a view over the range it was given (valid only while the range is)
     * rather than a value that owns its own copy. The default is the safe assumption, {@code true}: a caller may
     * then release the range only once it is done with the value. Copying codecs return {@code false}, which lets
     * the caller release the range as soon as decode returns.
     *
     * @return {@code true} if decoded values view the caller's buffer
     */
    default boolean decodesToView() {
        return true;
    }
}
