package dev.cairn.cli;

import dev.cairn.client.audit.AuditException;
import dev.cairn.client.audit.JournalReader;
import dev.cairn.client.audit.JournalVerifier;
import dev.cairn.core.audit.JournalEntry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * Runs {@code cairn audit ...} without Kafka: the journal is a list of records on partition 0 (bounds applied as
 * the Kafka reader applies them), the REST API a function; output and errors are captured.
 */
final class AuditRun {

    final List<JournalEntry> journal = new ArrayList<>();
    JournalVerifier.LiveSource live = path -> {
        throw new AuditException("cannot reach the REST API at http://nowhere:1: java.net.ConnectException");
    };
    Map<String, Object> consumerConfig;
    String topic;
    int exit;
    String out;
    String err;

    AuditRun withJournal(List<JournalEntry> entries) {
        journal.addAll(entries);
        return this;
    }

    AuditRun withLive(JournalVerifier.LiveSource source) {
        this.live = source;
        return this;
    }

    AuditRun run(String... args) {
        AuditCommand.JournalSources journals = config -> (topic, bounds, sink, progress, timeout) -> {
            this.consumerConfig = config;
            this.topic = topic;
            return read(bounds, sink, progress);
        };
        AuditCommand.LiveSources lives = (base, token, timeout) -> live;
        CommandLine.IFactory defaults = CommandLine.defaultFactory();
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            @SuppressWarnings("unchecked")
            public <K> K create(Class<K> type) throws Exception {
                return type == AuditCommand.class ? (K) new AuditCommand(journals, lives) : defaults.create(type);
            }
        };
        CairnCli cli = new CairnCli((config, topic, timeout, requestsKey) -> {
            throw new AssertionError("audit sends nothing");
        }, Clock.systemUTC());
        CommandLine commandLine = CairnCli.commandLine(cli, factory);
        CliRun.Output output = CliRun.execute(commandLine, args);
        exit = output.exit();
        out = output.out();
        err = output.err();
        return this;
    }

    private JournalReader.Summary read(JournalReader.Bounds bounds, java.util.function.Consumer<JournalEntry> sink,
            JournalReader.Progress progress) {
        long read = 0;
        for (JournalEntry entry : journal) {
            if (bounds.untilOffset() != null && entry.offset() > bounds.untilOffset()
                    || bounds.untilTimestampMs() != null && entry.timestampMs() > bounds.untilTimestampMs()) {
                break;
            }
            read++;
            if (bounds.jobId() == null || bounds.jobId().equals(entry.key())) {
                sink.accept(entry);
            }
            progress.advanced(read, journal.size());
        }
        progress.finished();
        long first = journal.isEmpty() ? 0 : journal.get(0).offset();
        long end = journal.isEmpty() ? 0 : journal.get(journal.size() - 1).offset() + 1;
        return new JournalReader.Summary(read, Map.of(0, new long[] {first, end}));
    }
}
