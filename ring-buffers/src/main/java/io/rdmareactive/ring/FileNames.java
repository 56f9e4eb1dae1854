package io.rdmareactive.ring;

import java.util.regex.Pattern;

/**
 * The one rule for the names rdma-reactive puts into file names in a {@link PrivateDirectory}: a shared-memory
 * listener's {@code <name>.sock}, a driver's {@code <name>.counters}, the directory's own {@code rdma-reactive-<user>}.
 * A name is 1 to {@value #MAX_LENGTH} letters, digits, {@code .}, {@code _} or {@code -}: nothing that could leave
 * the directory ({@code /}) or confuse a shell.
 */
public final class FileNames {

    /** The longest name. */
    public static final int MAX_LENGTH = 64;

    /** The characters of a name, as a regular expression's character class body. */
    private static final String CHARACTERS = "A-Za-z0-9._-";
    /** The rule as a regular expression, for patterns that embed a name (a file name around it). */
    public static final String REGEX = "[" + CHARACTERS + "]{1," + MAX_LENGTH + "}";
    private static final Pattern NAME = Pattern.compile(REGEX);
    private static final Pattern NOT_A_NAME_CHARACTER = Pattern.compile("[^" + CHARACTERS + "]");

    private FileNames() {
    }

    /** @return whether {@code name} is a name (null is not) */
    public static boolean isName(final String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /**
     * @param name the name to check
     * @param what what it names, for the message ("a driver name")
     * @return {@code name}
     * @throws IllegalArgumentException {@code '<name>' is not <what>: use 1 to 64 letters, digits, '.', '_' or '-'}
     */
    public static String requireName(final String name, final String what) {
        if (!isName(name)) {
            throw new IllegalArgumentException("'" + name + "' is not " + what + ": use 1 to " + MAX_LENGTH
                + " letters, digits, '.', '_' or '-'");
        }
        return name;
    }

    /**
     * @param text any text, such as a user name or a provider's name
     * @return {@code text} with each character a name may not have replaced by {@code _} (not shortened)
     */
    public static String sanitize(final String text) {
        return NOT_A_NAME_CHARACTER.matcher(text).replaceAll("_");
    }
}
