package dev.cairn.kit.storage;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the storages share about locations: their scheme, and the relative names resolved in a directory. */
final class Locations {

    private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):.*", Pattern.DOTALL);

    private Locations() {
    }

    /** The scheme of {@code location} in lower case ({@code file}, {@code s3}); empty for a plain path. */
    static Optional<String> scheme(String location) {
        Matcher matcher = SCHEME.matcher(location);
        return matcher.matches() ? Optional.of(matcher.group(1).toLowerCase(Locale.ROOT)) : Optional.empty();
    }

    /**
     * Checks that {@code name} is relative and stays inside the directory it is resolved in.
     *
     * @throws IllegalArgumentException when it is empty, starts with a slash or has a {@code .} or {@code ..} segment
     */
    static String requireRelativeName(String name) {
        if (name.isEmpty() || name.startsWith("/") || name.startsWith("\\")) {
            throw new IllegalArgumentException("a name in a storage location is relative and not empty, was \""
                    + name + "\"");
        }
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("a name in a storage location has no empty, . or .. segment, was \""
                        + name + "\"");
            }
        }
        return name;
    }
}
