package dev.cairn.config;

/**
 * A configuration value that is missing, malformed or contradicts another; the message names the key and where
 * the value came from (flag, environment variable or file).
 */
public class ConfigProblem extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String key;

    public ConfigProblem(String key, String message) {
        super(message);
        this.key = key;
    }

    public ConfigProblem(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
    }

    /** The key, e.g. {@code job.id}. */
    public String key() {
        return key;
    }
}
