package dev.cairn.coordinator.rest.access;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The bearer tokens that may change jobs through the REST API, read from a properties file:
 * <pre>
 *   # &lt;principal&gt;.token = the secret, at least 16 characters of A-Z a-z 0-9 - . _ ~ + / (then = padding)
 *   # &lt;principal&gt;.jobs  = comma-separated job ids or prefixes ending in *; default * (every job)
 *   ops.token=Zm9vYmFyYmF6cXV4cXV1eA
 *   ci.token=c2VjcmV0LWZvci1jaS1vbmx5
 *   ci.jobs=ci-*,nightly-report
 * </pre>
 * The principal (letters, digits, {@code . _ - @}) names the caller in the log; a token is never logged.
 * Presented tokens are compared in constant time with every known one (SHA-256 digests compared with
 * {@link MessageDigest#isEqual}), so neither the time taken nor the length leaks a secret.
 */
public final class BearerTokens {

    /** RFC 6750's b64token, at least 16 characters long. */
    static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]{16,}=*");
    private static final Pattern PRINCIPAL = Pattern.compile("[A-Za-z0-9._@-]+");

    /** Who holds a token, and which jobs it covers. */
    public record Holder(String principal, JobScope scope) {
    }

    private record Entry(Holder holder, byte[] digest) {
    }

    private final List<Entry> entries;

    private BearerTokens(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * Reads the tokens file.
     *
     * @throws IllegalArgumentException naming the file, and the key or line, of anything malformed
     */
    public static BearerTokens load(Path file) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("tokens file " + file + ": cannot read it");
        }
        Map<String, String> values = new TreeMap<>();
        Properties properties = new Properties() {
            private static final long serialVersionUID = 1L;

            @Override
            public synchronized Object put(Object key, Object value) {
                if (values.put((String) key, (String) value) != null) {
                    throw new IllegalArgumentException("key '" + key + "' appears twice");
                }
                return super.put(key, value);
            }
        };
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("tokens file " + file + " is not a valid properties file: "
                    + e.getMessage(), e);
        }
        return parse(values, "tokens file " + file);
    }

    /**
     * Reads the entries of a tokens file.
     *
     * @param source names the entries in errors, e.g. {@code tokens file /etc/cairn/tokens.properties}
     * @throws IllegalArgumentException naming the source and the key of anything malformed
     */
    public static BearerTokens parse(Map<String, String> properties, String source) {
        Map<String, String> tokens = new TreeMap<>();
        Map<String, JobScope> scopes = new HashMap<>();
        properties.forEach((key, value) -> {
            int dot = key.lastIndexOf('.');
            String principal = dot <= 0 ? "" : key.substring(0, dot);
            String kind = dot <= 0 ? key : key.substring(dot + 1);
            if (!PRINCIPAL.matcher(principal).matches() || !(kind.equals("token") || kind.equals("jobs"))) {
                throw new IllegalArgumentException(source + ": key '" + key
                        + "' is neither <principal>.token nor <principal>.jobs");
            }
            String text = value.strip();
            if (kind.equals("token")) {
                if (!TOKEN.matcher(text).matches()) {
                    throw new IllegalArgumentException(source + ": key '" + key + "': a token is at least 16 "
                            + "characters of A-Z a-z 0-9 - . _ ~ + / (then optional = padding)");
                }
                tokens.put(principal, text);
            } else {
                try {
                    scopes.put(principal, JobScope.parse(text));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(source + ": key '" + key + "': " + e.getMessage(), e);
                }
            }
        });
        scopes.keySet().stream().filter(principal -> !tokens.containsKey(principal)).findFirst().ifPresent(p -> {
            throw new IllegalArgumentException(source + ": key '" + p + ".jobs' has no " + p + ".token");
        });
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException(source + ": defines no token (expected <principal>.token=<secret>)");
        }
        Map<String, String> principalByToken = new HashMap<>();
        List<Entry> entries = new ArrayList<>();
        tokens.forEach((principal, token) -> {
            String other = principalByToken.put(token, principal);
            if (other != null) {
                throw new IllegalArgumentException(source + ": keys '" + other + ".token' and '" + principal
                        + ".token' hold the same token");
            }
            entries.add(new Entry(new Holder(principal, scopes.getOrDefault(principal, JobScope.ALL)), digest(token)));
        });
        return new BearerTokens(entries);
    }

    /** The holder of {@code token}, if any; takes the same time whichever token matches, if one does. */
    public Optional<Holder> find(String token) {
        byte[] presented = digest(token);
        Holder found = null;
        for (Entry entry : entries) {
            if (MessageDigest.isEqual(entry.digest(), presented)) {
                found = entry.holder();
            }
        }
        return Optional.ofNullable(found);
    }

    /** The principals, in name order. */
    public List<String> principals() {
        return entries.stream().map(entry -> entry.holder().principal()).toList();
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
