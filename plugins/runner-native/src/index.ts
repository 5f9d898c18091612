import { definePlugin } from '@testkeeper/kernel';

export default definePlugin({
  id: 'runner-native',
  register() {},
});
