package dev.cairn.config;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * A validator for a key without default: an absent value ({@code null}) is fine, a given one must pass the inner
 * validator. Kafka's own validators ({@code Range}, ...) refuse {@code null}.
 */
public final class OptionalValue implements ConfigDef.Validator {

    /** A check that throws an {@link IllegalArgumentException} whose message says what is wrong. */
    @FunctionalInterface
    public interface Check {
        void check(Object value);
    }

    private final ConfigDef.Validator inner;
    private final String description;

    private OptionalValue(ConfigDef.Validator inner, String description) {
        this.inner = inner;
        this.description = description;
    }

    /** {@code null} or a value {@code validator} accepts. */
    public static OptionalValue of(ConfigDef.Validator validator) {
        return new OptionalValue(validator, validator.toString());
    }

    /**
     * {@code null} or a value {@code check} accepts; its message becomes the whole message.
     *
     * @param description what is valid, for the configuration reference
     */
    public static OptionalValue of(Check check, String description) {
        return new OptionalValue((name, value) -> {
            try {
                check.check(value);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage());
            }
        }, description);
    }

    @Override
    public void ensureValid(String name, Object value) {
        if (value != null) {
            inner.ensureValid(name, value);
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
