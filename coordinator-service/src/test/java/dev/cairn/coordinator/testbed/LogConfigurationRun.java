package dev.cairn.coordinator.testbed;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import dev.cairn.metrics.logging.LogFormat;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.MDC;

/**
 * Runs a program's real logback configuration (its {@code logback.xml}, not the tests' {@code logback-test.xml}) in a
 * logger context of its own, with the log format chosen as {@code -Dcairn.log.format} would, and returns what it
 * wrote to standard output, line by line.
 */
public final class LogConfigurationRun {

    private LogConfigurationRun() {}

    /**
     * @param format the value of {@value LogFormat#PROPERTY}; {@code null}: unset
     * @param logging logs with loggers of the configured context
     * @return the lines written to standard output meanwhile
     */
    public static synchronized List<String> run(String format, Consumer<LoggerContext> logging) {
        URL config = LogConfigurationRun.class.getClassLoader().getResource("logback.xml");
        if (config == null) {
            throw new IllegalStateException("no logback.xml on the class path");
        }
        String before = System.getProperty(LogFormat.PROPERTY);
        PrintStream out = System.out;
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext();
        // the program's MDC (JobLogContext writes it); initialises SLF4J before standard output is captured
        context.setMDCAdapter(MDC.getMDCAdapter());
        try {
            setFormat(format);
            System.setOut(new PrintStream(written, true, StandardCharsets.UTF_8));
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(config);
            failOnProblems(context, "configured");
            logging.accept(context);
            failOnProblems(context, "logged");
        } catch (JoranException e) {
            throw new IllegalStateException("logback.xml does not configure: " + e, e);
        } finally {
            context.stop();
            System.setOut(out);
            setFormat(before);
        }
        return written.toString(StandardCharsets.UTF_8).lines().toList();
    }

    /** Logback reports problems in its status, not by throwing: a warning or an error fails the run. */
    private static void failOnProblems(LoggerContext context, String what) {
        List<String> problems = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(status -> status.getLevel() >= Status.WARN)
                .map(status -> status + (status.getThrowable() == null ? "" : ": " + status.getThrowable()))
                .toList();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("logback.xml " + what + " with problems: " + problems);
        }
    }

    private static void setFormat(String format) {
        if (format == null) {
            System.clearProperty(LogFormat.PROPERTY);
        } else {
            System.setProperty(LogFormat.PROPERTY, format);
        }
    }
}
