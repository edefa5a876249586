package dev.cairn.sidecar.app;

import dev.cairn.config.ConfigProblem;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.command.CommandSnapshotHook;
import dev.cairn.sidecar.hook.http.HttpSnapshotHook;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Creates the hook a {@link SidecarConfig} names: an instance of {@code hook.class} (or the one
 * {@link SnapshotHook} registered with {@link ServiceLoader}), an {@link HttpSnapshotHook} for {@code hook.url}
 * or a {@link CommandSnapshotHook} for {@code hook.command}. Failures name the setting.
 */
public final class HookFactory {

    private HookFactory() {
    }

    /** A new hook for {@code config}, Java hooks loaded by the thread's context class loader; the caller closes it. */
    public static SnapshotHook create(SidecarConfig config) {
        return create(config, classLoader());
    }

    /** A new hook for {@code config}, Java hooks loaded by {@code loader}; the caller closes it. */
    public static SnapshotHook create(SidecarConfig config, ClassLoader loader) {
        return switch (config.hookKind()) {
            case HTTP -> new HttpSnapshotHook(config.hookUrl(), config.hookTimeout());
            case COMMAND -> new CommandSnapshotHook(config.hookCommand(), config.hookTimeout());
            case JAVA -> config.hookClass() != null ? instantiate(config.hookClass(), loader) : loadService(loader);
        };
    }

    private static SnapshotHook instantiate(String className, ClassLoader loader) {
        String key = SidecarKeys.HOOK_CLASS;
        Class<?> type;
        try {
            type = Class.forName(className, true, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ConfigProblem(key, key + " names class " + className
                    + ", which is not on the class path (" + e + ")", e);
        }
        if (!SnapshotHook.class.isAssignableFrom(type)) {
            throw new ConfigProblem(key, key + " names class " + className + ", which does not implement "
                    + SnapshotHook.class.getName());
        }
        try {
            return (SnapshotHook) type.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new ConfigProblem(key, key + " names class " + className
                    + ", which has no public no-argument constructor", e);
        } catch (InvocationTargetException e) {
            throw new ConfigProblem(key, "the constructor of " + key + " class " + className + " failed: "
                    + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new ConfigProblem(key, key + " class " + className + " cannot be instantiated: " + e, e);
        }
    }

    private static SnapshotHook loadService(ClassLoader loader) {
        String key = SidecarKeys.HOOK_CLASS;
        List<ServiceLoader.Provider<SnapshotHook>> providers = ServiceLoader.load(SnapshotHook.class, loader)
                .stream().toList();
        if (providers.isEmpty()) {
            throw new ConfigProblem(key, key + " is missing and no " + SnapshotHook.class.getName()
                    + " is registered with ServiceLoader (META-INF/services): name the worker's hook class");
        }
        if (providers.size() > 1) {
            throw new ConfigProblem(key, key + " is missing and several hooks are registered with "
                    + "ServiceLoader: " + providers.stream().map(p -> p.type().getName()).toList()
                    + "; name the one to use");
        }
        return providers.get(0).get();
    }

    private static ClassLoader classLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : HookFactory.class.getClassLoader();
    }
}
