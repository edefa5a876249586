package dev.cairn.metrics.logging;

import ch.qos.logback.core.PropertyDefinerBase;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Which format the coordinator's and the sidecar's logs are written in, for their logback configuration
 * ({@code <define name="CAIRN_LOG_APPENDER" class="dev.cairn.metrics.logging.LogFormat"/>}): the system property
 * {@value #PROPERTY}, else the environment variable {@value #VARIABLE}, {@code text} (the default: one line per event
 * with a time, level, logger and message) or {@code json} (one JSON object per line: logback's {@code JsonEncoder},
 * with the job in its {@code mdc}). The value is the name of the appender to use. An unknown value is reported on
 * standard error, naming where it came from, and the log is written as text: nothing is lost.
 */
public final class LogFormat extends PropertyDefinerBase {

    /** The system property that chooses the format; it wins over {@link #VARIABLE}. */
    public static final String PROPERTY = "cairn.log.format";
    /** The environment variable that chooses the format. */
    public static final String VARIABLE = "CAIRN_LOG_FORMAT";
    private static final Map<String, String> APPENDERS = Map.of("text", "CAIRN_TEXT", "json", "CAIRN_JSON");

    private final UnaryOperator<String> properties;
    private final UnaryOperator<String> environment;

    /** Reads the JVM's system properties and the process's environment; logback creates it. */
    public LogFormat() {
        this(System::getProperty, System::getenv);
    }

    /**
     * @param properties a system property by name, {@code null} when unset
     * @param environment an environment variable by name, {@code null} when unset
     */
    LogFormat(UnaryOperator<String> properties, UnaryOperator<String> environment) {
        this.properties = properties;
        this.environment = environment;
    }

    /** The name of the appender of the chosen format: {@code CAIRN_TEXT} or {@code CAIRN_JSON}. */
    @Override
    public String getPropertyValue() {
        String given = properties.apply(PROPERTY);
        String source = "system property " + PROPERTY;
        if (given == null || given.isBlank()) {
            given = environment.apply(VARIABLE);
            source = "environment variable " + VARIABLE;
        }
        if (given == null || given.isBlank()) {
            return APPENDERS.get("text");
        }
        String appender = APPENDERS.get(given.strip().toLowerCase(Locale.ROOT));
        if (appender == null) {
            System.err.println("cairn: " + source + " is '" + given + "'; the log formats are text and json. "
                    + "Logging as text.");
            return APPENDERS.get("text");
        }
        return appender;
    }
}
