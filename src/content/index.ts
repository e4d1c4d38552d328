console.info('[apprentice] content ready');
