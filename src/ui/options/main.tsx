/** Options page: provider, key and hyperparameters. */
import '../styles.css';
import { mountOptions } from '../app/mount-options.tsx';

mountOptions();
