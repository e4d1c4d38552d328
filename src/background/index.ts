console.info('[apprentice] background ready');
