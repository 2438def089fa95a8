package org.jhpvm.apps;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;

@Command(name = "fabric", mixinStandardHelpOptions = true, description = "placeholder")
final class FabricCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        return 0;
    }
}
