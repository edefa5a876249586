package dev.cairn.sidecar.hook.command;

import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.http.HookJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The variables of a restore call of the command hook, and the files they name, deleted once the command exited
 * ({@link #close}). For a point ({@link CommandSnapshotHook} lists them all):
 * <ul>
 *   <li>the point and the own state: {@code CAIRN_RESTORE_CHECKPOINT_ID}, {@code CAIRN_RESTORE_LOCATION} (unset
 *       after a rescale: no own state), {@code CAIRN_RESTORE_SIZE_BYTES}, {@code CAIRN_RESTORE_CHOSEN},
 *       {@code CAIRN_RESTORE_SHARED_COUNT} and {@code CAIRN_RESTORE_SHARED_FILE};</li>
 *   <li>how the task restores: {@code CAIRN_RESTORE_RESCALED} ({@code true} or {@code false}), and when the
 *       coordinator said, {@code CAIRN_RESTORE_PARALLELISM}, {@code CAIRN_RESTORE_PREVIOUS_PARALLELISM},
 *       {@code CAIRN_RESTORE_MAX_PARALLELISM} and {@code CAIRN_RESTORE_KEY_GROUPS} ({@code start-end}, both
 *       included: the key groups the subtask owns now);</li>
 *   <li>every state the subtask reads: {@code CAIRN_RESTORE_STATES_COUNT}, {@code CAIRN_RESTORE_STATES_FILE}
 *       (one line per state, {@code fromSubtask sizeBytes keyGroups mode location}, {@code keyGroups} as
 *       {@code start-end} and {@code -} for either when its snapshot declared none, the location last so that a
 *       location with spaces stays whole), and {@code CAIRN_RESTORE_STATES_JSON_FILE} (the same states as a JSON
 *       array, with their shared objects: {@link HookJson#states}).</li>
 * </ul>
 */
final class RestoreVariables implements AutoCloseable {

    /** Every variable a restore call may set. */
    static final List<String> NAMES = List.of("CAIRN_RESTORE_LOCATION", "CAIRN_RESTORE_CHECKPOINT_ID",
            "CAIRN_RESTORE_SIZE_BYTES", "CAIRN_RESTORE_CHOSEN", "CAIRN_RESTORE_SHARED_COUNT",
            "CAIRN_RESTORE_SHARED_FILE", "CAIRN_RESTORE_RESCALED", "CAIRN_RESTORE_PARALLELISM",
            "CAIRN_RESTORE_PREVIOUS_PARALLELISM", "CAIRN_RESTORE_MAX_PARALLELISM", "CAIRN_RESTORE_KEY_GROUPS",
            "CAIRN_RESTORE_STATES_COUNT", "CAIRN_RESTORE_STATES_FILE", "CAIRN_RESTORE_STATES_JSON_FILE");

    private final Map<String, String> variables = new LinkedHashMap<>();
    private final List<Path> files = new ArrayList<>();

    private RestoreVariables() {
    }

    /**
     * The variables of a restore from {@code from} (none for a fresh start), with their files written.
     *
     * @throws IOException when a file cannot be written, or a state's location holds a line break (the states file
     *     has one line per state)
     */
    static RestoreVariables of(Optional<RestorePoint> from) throws IOException {
        RestoreVariables restore = new RestoreVariables();
        if (from.isEmpty()) {
            return restore;
        }
        try {
            restore.add(from.get());
        } catch (IOException | RuntimeException e) {
            restore.close();
            throw e;
        }
        return restore;
    }

    /** The variables, in the order they were set. */
    Map<String, String> variables() {
        return variables;
    }

    /** One state as its line of {@code CAIRN_RESTORE_STATES_FILE}, without the line break. */
    static String line(RestoredState state) throws IOException {
        if (state.location().indexOf('\n') >= 0 || state.location().indexOf('\r') >= 0) {
            throw new IOException("cannot hand the state of subtask " + state.fromSubtask() + " to a restoring"
                    + " command: its location holds a line break, and CAIRN_RESTORE_STATES_FILE has one line per"
                    + " state: " + state.location().replace("\n", "\\n").replace("\r", "\\r"));
        }
        return state.fromSubtask() + " " + state.sizeBytes() + " " + range(state.keyGroups()) + " "
                + (state.operatorStateMode() == null ? "-" : state.operatorStateMode().name()) + " "
                + state.location();
    }

    /** Deletes the files. */
    @Override
    public void close() throws IOException {
        for (Path file : files) {
            Files.deleteIfExists(file);
        }
    }

    private void add(RestorePoint point) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (RestoredState state : point.states()) {
            lines.append(line(state)).append('\n');
        }
        variables.put("CAIRN_RESTORE_CHECKPOINT_ID", Long.toString(point.checkpointId()));
        if (point.location() != null) {
            variables.put("CAIRN_RESTORE_LOCATION", point.location());
        }
        variables.put("CAIRN_RESTORE_SIZE_BYTES", Long.toString(point.sizeBytes()));
        variables.put("CAIRN_RESTORE_CHOSEN", Boolean.toString(point.chosen()));
        variables.put("CAIRN_RESTORE_SHARED_COUNT", Integer.toString(point.shared().size()));
        variables.put("CAIRN_RESTORE_SHARED_FILE", file("cairn-restore-shared-", ".json",
                HookJson.shared(point.shared())));
        variables.put("CAIRN_RESTORE_RESCALED", Boolean.toString(point.rescaled()));
        if (point.parallelism() > 0) {
            variables.put("CAIRN_RESTORE_PARALLELISM", Integer.toString(point.parallelism()));
            variables.put("CAIRN_RESTORE_PREVIOUS_PARALLELISM", Integer.toString(point.previousParallelism()));
        }
        if (point.maxParallelism() > 0) {
            variables.put("CAIRN_RESTORE_MAX_PARALLELISM", Integer.toString(point.maxParallelism()));
        }
        if (point.keyGroups() != null) {
            variables.put("CAIRN_RESTORE_KEY_GROUPS", range(point.keyGroups()));
        }
        variables.put("CAIRN_RESTORE_STATES_COUNT", Integer.toString(point.states().size()));
        variables.put("CAIRN_RESTORE_STATES_FILE", file("cairn-restore-states-", ".txt", lines.toString()));
        variables.put("CAIRN_RESTORE_STATES_JSON_FILE", file("cairn-restore-states-", ".json",
                HookJson.states(point.states())));
    }

    private String file(String prefix, String suffix, String content) throws IOException {
        Path file = Files.createTempFile(prefix, suffix);
        files.add(file);
        Files.writeString(file, content);
        return file.toString();
    }

    private static String range(KeyGroupRange range) {
        return range == null ? "-" : range.startKeyGroup() + "-" + range.endKeyGroup();
    }
}
