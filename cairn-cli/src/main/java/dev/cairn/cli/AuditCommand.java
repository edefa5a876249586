package dev.cairn.cli;

import dev.cairn.client.audit.AuditException;
import dev.cairn.client.audit.HttpLiveSource;
import dev.cairn.client.audit.JournalReader;
import dev.cairn.client.audit.JournalVerifier;
import dev.cairn.core.audit.JournalEntry;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code cairn audit}: reads {@code <prefix>journal} directly (no coordinator needed, nothing is sent) and folds
 * it with the coordinator's own evolver. {@code timeline} tells one checkpoint's story, {@code check} checks the
 * journal's invariants, {@code state} shows a job's state as it was at an offset or a time, {@code verify}
 * compares the replay with a live coordinator's REST API. Each writes text, JSON or CSV ({@code --format}); a
 * progress bar goes to stderr when it is a console or {@code --progress} is given.
 *
 * <p>Exit codes: 0 done (and, for check and verify, nothing found), 1 a violation or difference was found or
 * Kafka, the topic, the job, the checkpoint or the REST API is not there, 2 malformed flags.
 */
@Command(name = "audit",
        description = "Reads the journal directly (no coordinator needed; nothing is sent): a checkpoint's timeline, "
                + "the journal's invariants, a job's state as it was, the replay against the live coordinator.",
        subcommands = {AuditTimelineCommand.class, AuditCheckCommand.class, AuditStateCommand.class,
                AuditVerifyCommand.class},
        synopsisSubcommandLabel = "(timeline | check | state | verify)",
        footer = {"", "Examples:",
                "  cairn audit timeline --job orders --checkpoint 42",
                "  cairn audit check --format json",
                "  cairn audit state --job orders --as-of 2024-06-01T12:00:00Z",
                "  cairn audit state --job orders --as-of 1200",
                "  cairn audit verify --rest-url http://coordinator:8081 --token-file ops.token",
                "",
                "Exit codes: 0 done and nothing found, 1 violations or differences found or something is not "
                        + "there (Kafka, topic, job, checkpoint, REST API), 2 malformed flags."})
final class AuditCommand implements Runnable {

    /** Output formats. */
    enum Format { TEXT, JSON, CSV }

    /** Reads the journal: Kafka, or records in memory for tests. */
    interface JournalSource {
        JournalReader.Summary read(String topic, JournalReader.Bounds bounds, Consumer<JournalEntry> sink,
                JournalReader.Progress progress, Duration timeout);
    }

    /** Opens a {@link JournalSource} with the consumer's connection settings. */
    interface JournalSources {
        JournalSource open(Map<String, Object> consumerConfig);
    }

    /** Opens the REST API of a live coordinator. */
    interface LiveSources {
        JournalVerifier.LiveSource open(URI base, String token, Duration timeout);
    }

    private static final int MAX_WARNINGS = 20;

    @Option(names = "--format", scope = ScopeType.INHERIT, paramLabel = "FORMAT", defaultValue = "text",
            description = "Output format: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = "--progress", scope = ScopeType.INHERIT,
            description = "Show a progress bar on stderr even when it is not a console.")
    boolean progress;

    @Option(names = "--timeout-ms", scope = ScopeType.INHERIT, paramLabel = "MS", defaultValue = "600000",
            description = "How long reading the journal may take at most (default ${DEFAULT-VALUE}).")
    long timeoutMs;

    @ParentCommand
    CairnCli cli;

    @Spec
    CommandSpec spec;

    private final JournalSources journals;
    private final LiveSources lives;

    /** Reads Kafka and asks the REST API over HTTP. */
    AuditCommand() {
        this(config -> new JournalReader(config)::read, HttpLiveSource::new);
    }

    /** Reads through {@code journals} and asks through {@code lives} (tests). */
    AuditCommand(JournalSources journals, LiveSources lives) {
        this.journals = journals;
        this.lives = lives;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Name what to audit: timeline, check, state or verify.");
    }

    /**
     * Reads the journal within {@code bounds}, with a progress bar when asked for or on a console; records that do
     * not decode are handed on when {@code undecodable} is set, else skipped with a warning on stderr.
     */
    JournalReader.Summary read(CommandSpec command, JournalReader.Bounds bounds, Consumer<JournalEntry> sink,
            boolean undecodable) {
        String topic = cli.topics(command).journal();
        if (timeoutMs < 1) {
            throw new ParameterException(command.commandLine(), "--timeout-ms must be at least 1, was " + timeoutMs);
        }
        Map<String, Object> config = consumerConfig(command);
        PrintWriter err = command.commandLine().getErr();
        int[] warned = {0};
        Consumer<JournalEntry> checked = undecodable ? sink : entry -> {
            if (entry.decoded()) {
                sink.accept(entry);
            } else if (warned[0]++ < MAX_WARNINGS) {
                err.println("warning: skipped record " + entry.position() + " of " + topic + ": "
                        + entry.decodeError());
            }
        };
        JournalReader.Progress bar = progress || System.console() != null
                ? new ProgressBar(err, "reading " + topic) : JournalReader.Progress.NONE;
        JournalReader.Summary summary = journals.open(config).read(topic, bounds, checked, bar,
                Duration.ofMillis(timeoutMs));
        if (warned[0] > MAX_WARNINGS) {
            err.println("warning: skipped " + warned[0] + " records of " + topic + " that do not decode in all");
        }
        summary.history().stream().filter(JournalReader.History::headDeleted).forEach(history -> err.println(
                "warning: " + topic + " " + history.describe() + ": Kafka no longer holds the history before "
                        + "offset " + history.firstOffset() + " (a finite retention, compaction or deleted records), "
                        + "so the replay starts there"));
        err.flush();
        return summary;
    }

    /** The REST API of a live coordinator. */
    JournalVerifier.LiveSource live(URI base, String token) {
        return lives.open(base, token, Duration.ofSeconds(30));
    }

    /** The consumer's settings: the common Kafka client settings ({@link CliKeys#clientSettings}). */
    private Map<String, Object> consumerConfig(CommandSpec command) {
        Map<String, Object> config = new HashMap<>(cli.clientSettings(command).settings());
        config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "cairn-audit");
        return config;
    }

    /** Runs {@code body}; a failure to reach Kafka or the REST API is reported on stderr, exit code 1. */
    static int reporting(CommandSpec command, Callable<Integer> body) {
        try {
            return body.call();
        } catch (AuditException e) {
            PrintWriter err = command.commandLine().getErr();
            err.println(command.qualifiedName() + ": " + e.getMessage());
            err.flush();
            return 1;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reports that something asked for is not in the journal: stderr, exit code 1. */
    static int notFound(CommandSpec command, String message) {
        PrintWriter err = command.commandLine().getErr();
        err.println(command.qualifiedName() + ": " + message);
        err.flush();
        return 1;
    }
}
