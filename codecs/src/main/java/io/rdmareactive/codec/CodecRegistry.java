package io.rdmareactive.codec;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.agrona.DirectBuffer;

/**
 * Picks a codec by Java type, so an API can take a {@code Class<T>} instead of a {@link Codec Codec&lt;T&gt;} each
 * time ({@code inbound.receive(Order.class)}).
 *
 * <p>Immutable: {@link #with(Class, Codec)} and {@link #withFallback(Function)} return a new registry, so a
 * registry handed to a client or server cannot change under it, and no global state can leak between tests or
 * services. Safe for any number of threads.
 *
 * <h2>Lookup</h2>
 * {@link #codecFor(Class)} looks for, in this order:
 * <ol>
 *   <li>a codec registered for exactly the type (a primitive type such as {@code int.class} is looked up as its box,
 *       {@code Integer});</li>
 *   <li>a codec registered for one of its supertypes, nearest first: its superclass chain, each class before the
 *       interfaces it declares, breadth first (so a codec for {@link DirectBuffer} serves an {@code UnsafeBuffer},
 *       and one for {@link ByteBuffer} any heap or direct buffer); {@code Object} is never matched by this step
 *       unless a codec was registered for it;</li>
 *   <li>the fallbacks, newest first (for example a JSON codec factory that serves any type);</li>
 * </ol>
 * and otherwise throws {@link NoSuchCodecException} naming the type. A codec found through a supertype encodes any
 * value of the type; make sure its decode returns what the caller expects (an {@code UnsafeBuffer} codec decodes
 * into an {@code UnsafeBuffer}, but a codec registered for an interface decodes into whatever implementation it
 * chooses). Results are cached per registry: a lookup costs a map read after the first, and happens when a stream
 * is set up, never per message.
 *
 * <h2>Defaults</h2>
 * {@link #defaults()} maps {@code byte[]}, {@link ByteBuffer}, {@link DirectBuffer} (the shared view codec,
 * {@link Codecs#DIRECT_BUFFER}), {@link String}, the boxed primitives and the primitive arrays to the constants
 * in {@link Codecs}. Codecs a registry hands out must be safe to share between streams and threads: register
 * shareable codecs only (every constant in {@link Codecs} is; {@link Codecs#reusableDirectBufferView()} is not).
 */
public final class CodecRegistry {

    private static final CodecRegistry EMPTY = new CodecRegistry(Map.of(), List.of());

    private static final CodecRegistry DEFAULTS = EMPTY
        .with(byte[].class, Codecs.BYTE_ARRAY)
        .with(ByteBuffer.class, Codecs.BYTE_BUFFER)
        .with(DirectBuffer.class, Codecs.DIRECT_BUFFER)
        .with(String.class, Codecs.UTF8_STRING)
        .with(Boolean.class, Codecs.BOOLEAN)
        .with(Byte.class, Codecs.BYTE)
        .with(Short.class, Codecs.SHORT)
        .with(Character.class, Codecs.CHAR)
        .with(Integer.class, Codecs.INT)
        .with(Long.class, Codecs.LONG)
        .with(Float.class, Codecs.FLOAT)
        .with(Double.class, Codecs.DOUBLE)
        .with(boolean[].class, Codecs.BOOLEAN_ARRAY)
        .with(short[].class, Codecs.SHORT_ARRAY)
        .with(char[].class, Codecs.CHAR_ARRAY)
        .with(int[].class, Codecs.INT_ARRAY)
        .with(long[].class, Codecs.LONG_ARRAY)
        .with(float[].class, Codecs.FLOAT_ARRAY)
        .with(double[].class, Codecs.DOUBLE_ARRAY);

    private final Map<Class<?>, Codec<?>> registered;
    /** Newest first. */
    private final List<Function<? super Class<?>, ? extends Codec<?>>> fallbacks;
    private final Map<Class<?>, Codec<?>> resolved = new ConcurrentHashMap<>();

    private CodecRegistry(final Map<Class<?>, Codec<?>> registered,
                          final List<Function<? super Class<?>, ? extends Codec<?>>> fallbacks) {
        this.registered = registered;
        this.fallbacks = fallbacks;
    }

    /**
     * The registry of the built-in codecs: {@code byte[]}, {@code ByteBuffer}, {@code DirectBuffer},
     * {@code String}, the boxed primitives and the primitive arrays.
     *
     * @return the built-in registry (one shared immutable instance)
     */
    public static CodecRegistry defaults() {
        return DEFAULTS;
    }

    /**
     * A registry with no codec at all, for services that want to name every type they accept.
     *
     * @return the empty registry
     */
    public static CodecRegistry empty() {
        return EMPTY;
    }

    /**
     * A registry like this one in which {@code type} (and, unless they have codecs of their own, its subtypes)
     * maps to {@code codec}; a codec registered for the same type before is replaced.
     *
     * @param type the type the codec encodes and decodes; a primitive type means its box
     * @param codec a codec safe to share between streams and threads
     * @param <T> the type
     * @return a new registry
     */
    public <T> CodecRegistry with(final Class<T> type, final Codec<T> codec) {
        Objects.requireNonNull(codec, "codec");
        final Map<Class<?>, Codec<?>> copy = new LinkedHashMap<>(registered);
        copy.put(boxed(Objects.requireNonNull(type, "type")), codec);
        return new CodecRegistry(Map.copyOf(copy), fallbacks);
    }

    /**
     * A registry like this one that asks {@code factory} for a codec when neither the type nor a supertype has one
     * registered. The factory returns a codec for the type it is given, or {@code null} if it has none; the newest
     * fallback is asked first. Its codec is cached, so the factory is asked once per type.
     *
     * @param factory makes a codec for a type, or returns {@code null}
     * @return a new registry
     */
    public CodecRegistry withFallback(final Function<? super Class<?>, ? extends Codec<?>> factory) {
        final List<Function<? super Class<?>, ? extends Codec<?>>> copy =
            new ArrayList<>(fallbacks.size() + 1);
        copy.add(Objects.requireNonNull(factory, "factory"));
        copy.addAll(fallbacks);
        return new CodecRegistry(registered, List.copyOf(copy));
    }

    /**
     * The codec for {@code type}: registered for it exactly, else for its nearest supertype, else from a fallback.
     *
     * @param type the type of the values to encode or decode
     * @param <T> the type
     * @return the codec
     * @throws NoSuchCodecException if there is none, naming the type
     */
    public <T> Codec<T> codecFor(final Class<T> type) {
        return find(type).orElseThrow(() -> new NoSuchCodecException(type));
    }

    /**
     * Like {@link #codecFor(Class)}, but empty rather than throwing when there is no codec.
     *
     * @param type the type of the values to encode or decode
     * @param <T> the type
     * @return the codec, or empty
     */
    @SuppressWarnings("unchecked")
    public <T> Optional<Codec<T>> find(final Class<T> type) {
        final Class<?> key = boxed(Objects.requireNonNull(type, "type"));
        Codec<?> codec = resolved.get(key);
        if (codec == null) {
            codec = resolve(key);
            if (codec == null) {
                return Optional.empty();
            }
            final Codec<?> raced = resolved.putIfAbsent(key, codec);
            codec = raced != null ? raced : codec;
        }
        return Optional.of((Codec<T>) codec);
    }

    private Codec<?> resolve(final Class<?> type) {
        final Codec<?> exact = registered.get(type);
        if (exact != null) {
            return exact;
        }
        for (final Class<?> supertype : supertypes(type)) {
            final Codec<?> codec = registered.get(supertype);
            if (codec != null) {
                return codec;
            }
        }
        for (final Function<? super Class<?>, ? extends Codec<?>> fallback : fallbacks) {
            final Codec<?> codec = fallback.apply(type);
            if (codec != null) {
                return codec;
            }
        }
        return null;
    }

    /** Every proper supertype of {@code type}, nearest first: breadth first over superclass and interfaces. */
    private static Set<Class<?>> supertypes(final Class<?> type) {
        final Set<Class<?>> seen = new LinkedHashSet<>();
        final Deque<Class<?>> queue = new ArrayDeque<>();
        queue.add(type);
        while (!queue.isEmpty()) {
            final Class<?> current = queue.poll();
            final Class<?> superclass = current.getSuperclass();
            if (superclass != null && seen.add(superclass)) {
                queue.add(superclass);
            }
            for (final Class<?> implemented : current.getInterfaces()) {
                if (seen.add(implemented)) {
                    queue.add(implemented);
                }
            }
        }
        // Object last: it is nobody's nearest supertype, only a catch-all someone registered on purpose
        if (seen.remove(Object.class)) {
            seen.add(Object.class);
        }
        return seen;
    }

    private static Class<?> boxed(final Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return switch (type.getName()) {
            case "boolean" -> Boolean.class;
            case "byte" -> Byte.class;
            case "short" -> Short.class;
            case "char" -> Character.class;
            case "int" -> Integer.class;
            case "long" -> Long.class;
            case "float" -> Float.class;
            case "double" -> Double.class;
            default -> throw new IllegalArgumentException("no values of type " + type + " to encode");
        };
    }

    @Override
    public String toString() {
        return "CodecRegistry" + registered.keySet().stream().map(Class::getSimpleName).sorted().toList()
            + (fallbacks.isEmpty() ? "" : " + " + fallbacks.size() + " fallback(s)");
    }
}
