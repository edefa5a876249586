package dev.cairn.faults;

import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.serde.CairnSerdes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;

/**
 * What each record written again must be answered with in the journal, by its kind, and the table of what it was
 * answered with. A record must be answered by exactly one event, its refusal: a request by a {@code CommandRejected}
 * saying it was taken before (within the freshness window) or is stale (after it); a sidecar record by what its
 * semantics give (docs/security.md, "Replayed requests").
 */
final class ReplayVerdicts {

    /** The phrases that name why a {@code CommandRejected} refused a record written again. */
    private static final List<String> REASONS = List.of("stale request:", "was taken before",
            "is the running one already", "finished already", "is not pending", "is not waiting for its participants",
            "is not the restore point", "is not the running one");

    /** One record written again, its kind and what the journal answered on it. */
    record Verdict(String kind, RawRecords.Copy copy, List<Object> answers, Optional<String> problem) {

        /** The answer as the table shows it. */
        String answer() {
            return answers.isEmpty() ? "NOTHING" : String.join(" + ", answers.stream().map(ReplayVerdicts::label)
                    .toList());
        }
    }

    private final String requestsTopic;
    private final List<Verdict> verdicts = new ArrayList<>();

    ReplayVerdicts(String requestsTopic) {
        this.requestsTopic = requestsTopic;
    }

    /** The kind of event a captured record of {@code cairn.requests} or {@code cairn.acks} carries. */
    static SpecificRecord eventOf(RawRecords.Captured record, String requestsTopic) {
        Object event = record.topic().equals(requestsTopic)
                ? CairnSerdes.requests().deserialize(record.topic(), record.value()).getEvent()
                : CairnSerdes.acks().deserialize(record.topic(), record.value()).getEvent();
        return (SpecificRecord) event;
    }

    /** Judges the answers on {@code copy}: {@code stale} when the copy was written after the freshness window. */
    Verdict judge(RawRecords.Copy copy, List<Object> answers, boolean stale) {
        String kind = eventOf(copy.original(), requestsTopic).getClass().getSimpleName();
        Optional<String> problem;
        if (answers.size() != 1) {
            problem = Optional.of("answered by " + answers.size() + " events, not one refusal: " + answers);
        } else {
            problem = expected(kind, copy.original().topic().equals(requestsTopic), stale, answers.get(0))
                    ? Optional.empty() : Optional.of("answered by " + answers.get(0));
        }
        Verdict verdict = new Verdict(kind, copy, answers, problem.map(p -> kind + " at offset " + copy.offset()
                + " of " + copy.original().topic() + "-" + copy.original().partition() + " (a copy of offset "
                + copy.original().offset() + "): " + p));
        verdicts.add(verdict);
        return verdict;
    }

    private static boolean expected(String kind, boolean request, boolean stale, Object answer) {
        if (request) {
            return rejected(answer, stale ? "stale request:" : "was taken before");
        }
        return switch (kind) {
            case "TaskStarted" -> answer instanceof TaskStartRejected || rejected(answer, "is the running one already");
            case "CheckpointAcknowledged" -> answer instanceof AckDiscarded;
            case "ParticipantAcknowledged" -> answer instanceof AckDiscarded
                    || rejected(answer, "is not waiting for its participants");
            case "CheckpointDeclined" -> rejected(answer, "is not pending");
            case "ParticipantDeclined" -> rejected(answer, "is not waiting for its participants");
            case "TaskFinished" -> rejected(answer, "finished already");
            case "RestoreFailed" -> rejected(answer, "is not the restore point");
            default -> false;
        };
    }

    private static boolean rejected(Object answer, String why) {
        return answer instanceof CommandRejected r && (why.endsWith(":") ? r.getReason().startsWith(why)
                : r.getReason().contains(why));
    }

    private static String label(Object answer) {
        if (answer instanceof CommandRejected r) {
            String reason = r.getReason().toString();
            return "CommandRejected (" + REASONS.stream().filter(reason::contains).findFirst()
                    .orElse(reason.substring(0, Math.min(60, reason.length()))) + ")";
        }
        if (answer instanceof AckDiscarded d) {
            return "AckDiscarded " + d.getStatus() + (d.getStateHandle() == null ? "" : ", state handed out");
        }
        return answer.getClass().getSimpleName();
    }

    /** Every problem found so far, each naming the record. */
    List<String> problems() {
        return verdicts.stream().flatMap(v -> v.problem().stream()).toList();
    }

    /** The checkpoint ids whose replayed acks had their state handed out for clean-up again. */
    TreeSet<Long> handedOut() {
        TreeSet<Long> ids = new TreeSet<>();
        verdicts.forEach(v -> v.answers().stream().filter(a -> a instanceof AckDiscarded d
                && d.getStateHandle() != null).forEach(a -> ids.add(((AckDiscarded) a).getCheckpointId())));
        return ids;
    }

    /** The table of kinds, counts and answers, one line each, prefixed for the run's output. */
    List<String> table(String prefix) {
        Map<String, Map<String, Integer>> byKind = new TreeMap<>();
        for (Verdict verdict : verdicts) {
            byKind.computeIfAbsent(verdict.kind(), k -> new TreeMap<>()).merge(verdict.answer(), 1, Integer::sum);
        }
        List<String> lines = new ArrayList<>();
        lines.add(prefix + String.format("%-24s %5s  %s", "kind", "count", "answered in the journal by"));
        byKind.forEach((kind, answers) -> lines.add(prefix + String.format("%-24s %5d  %s", kind,
                answers.values().stream().mapToInt(Integer::intValue).sum(), String.join("; ", answers.entrySet()
                        .stream().map(e -> e.getKey() + " x" + e.getValue()).toList()))));
        return lines;
    }
}
